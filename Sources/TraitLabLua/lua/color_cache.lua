-- The fast path of `color:resolvedColor(tc)` for a colour whose answer
-- depends only on the collection (a system colour, an asset catalogue's
-- colour set): the colour's own method, made the first time it is resolved
-- (ColorCache.swift), reads the colour already resolved for that collection
-- object from `kept` (weak keys) and asks the host only on a miss (a
-- resolved colour is never false, so `or` is the test). `me` is the colour
-- the method belongs to: called on another colour (`a.resolvedColor(b, tc)`),
-- it asks the host.
return function(kept, me, ask)
    return function(self, tc)
        if self == me then return kept[tc] or ask(self, tc) end
        return ask(self, tc)
    end
end

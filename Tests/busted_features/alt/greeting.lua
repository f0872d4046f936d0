-- Found only through busted's --lpath (the features' .busted does not name alt/).
return { hello = function(name) return "hello, " .. name end }

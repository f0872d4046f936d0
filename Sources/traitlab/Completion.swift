#if canImport(Glibc)
import Glibc
#endif
import CEditLine
import CLua
import CLuaShim
import TraitEngine
import TraitLabLua

// Tab completion in the REPL. libedit hands over the word before the cursor
// (words break at spaces, operators, brackets and quotes, not at '.' or ':'),
// and the completer answers from the live state:
//
//   pri<TAB>                    globals and keywords
//   ui.Vi<TAB>, root.view.<TAB> fields along the path, walked through raw
//                               tables, `__index` tables and, for TraitLab
//                               objects, what the host can name without side effects
//   card:add<TAB>               methods only
//   x.myAppTheme = "pa<TAB>     the cases of the trait whose property is on the
//                               left of `=` (also `==`, `~=`)
//   :tr<TAB>                    colon commands, and their on|off or trait arguments
//
// Nothing here runs Lua code: completion must not have side effects or hang.

/// The completer of the running REPL, for libedit's C callback.
nonisolated(unsafe) var activeCompleter: Completer?

private let wordBreaks = " \t\n\"'`@$><=;|&{(,+-*/%^#~[]})"

func installCompletion() {
    tl_rl_set_basic_word_break_characters(strdup(wordBreaks))
    tl_rl_set_attempted_completion_function(attemptCompletion)
}

/// libedit's hook. Returns a malloc'd, NULL-terminated array: the text that
/// replaces the word (the matches' common prefix), then every match.
private func attemptCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    tl_rl_set_attempted_completion_over(1)    // never fall back to file names
    tl_rl_set_completion_append_character(0)
    guard let completer = activeCompleter, let text, let buffer = tl_rl_line_buffer() else { return nil }
    let line = Array(String(cString: buffer).unicodeScalars.prefix(Int(max(0, end))))
    let before = String(String.UnicodeScalarView(line.prefix(Int(max(0, start)))))
    let result = completer.complete(word: String(cString: text), before: before)
    guard !result.matches.isEmpty else { return nil }
    if result.matches.count == 1, let close = result.closingCharacter {
        tl_rl_set_completion_append_character(Int32(close.value))
    }
    let list = result.matches.count == 1 ? result.matches : [commonPrefix(result.matches)] + result.matches
    // libedit tests `matches[2]` to tell a single match, even when
    // `matches[1]` is already the terminator: pad with two NULLs.
    let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: list.count + 2)
    for (i, s) in list.enumerated() { array[i] = strdup(s) }
    array[list.count] = nil
    array[list.count + 1] = nil
    return array
}

private func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first.map({ Array($0.unicodeScalars) }) else { return "" }
    for w in words.dropFirst() {
        let s = Array(w.unicodeScalars)
        var n = 0
        while n < prefix.count, n < s.count, prefix[n] == s[n] { n += 1 }
        prefix.removeLast(prefix.count - n)
    }
    return String(String.UnicodeScalarView(prefix))
}

final class Completer {
    struct Result {
        var matches: [String] = []
        /// Typed after a single match (the closing quote of an enum case).
        var closingCharacter: Unicode.Scalar?
    }

    static let commands = [":help", ":tree", ":dump", ":traits", ":why", ":picture", ":plugins", ":reload", ":trace", ":stats", ":autoupdate", ":quit"]
    static let keywords = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
                           "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]

    private let host: LuaHost
    private var L: LuaState { host.L }

    init(host: LuaHost) { self.host = host }

    /// Completions for `word`, the text between the last word break and the
    /// cursor, with `before` the line up to the word.
    func complete(word: String, before: String) -> Result {
        let lineStart = before.drop { $0 == " " }
        if lineStart.hasPrefix(":") || (lineStart.isEmpty && word.hasPrefix(":")) {
            return completeCommand(word: word, before: String(lineStart))
        }
        if word.first == "\"" || word.first == "'" {
            // libedit keeps a quote right before the cursor in the word.
            let quote = word.unicodeScalars.first
            var r = completeCase(partial: String(word.dropFirst()), before: before, quote: quote)
            r.matches = r.matches.map { String(word.prefix(1)) + $0 }
            return r
        }
        if let last = before.unicodeScalars.last, last == "\"" || last == "'" {
            return completeCase(partial: word, before: String(before.dropLast()), quote: last)
        }
        return Result(matches: completePath(word))
    }

    // MARK: Commands

    private func completeCommand(word: String, before: String) -> Result {
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let command = words.first else {
            return Result(matches: Completer.commands.filter { $0.hasPrefix(word) })
        }
        switch command {
        case ":trace", ":autoupdate":
            return Result(matches: words.count == 1 ? ["on", "off"].filter { $0.hasPrefix(word) } : [])
        case ":why" where words.count >= 2:
            return Result(matches: host.world.registry.definitions.map(\.property).filter { $0.hasPrefix(word) }.sorted())
        case ":picture" where words.count >= 2:
            // After the expression: a trait name (the path is free text).
            return Result(matches: (completePath(word) + host.world.registry.definitions.map(\.property).filter { $0.hasPrefix(word) }).sorted())
        case ":tree" where words.count == 1, ":dump" where words.count == 1:
            return Result(matches: (["full"].filter { $0.hasPrefix(word) && !word.isEmpty } + completePath(word)))
        case ":why", ":tree", ":dump", ":traits", ":picture":
            return Result(matches: completePath(word))
        default:
            return Result()
        }
    }

    // MARK: Enum cases

    /// Inside a string after `prop =` (or `==`, `~=`): the cases of the enum
    /// trait whose property name is `prop`.
    private func completeCase(partial: String, before: String, quote: Unicode.Scalar?) -> Result {
        var lhs = Substring(before)
        func dropSpaces() { while lhs.last == " " || lhs.last == "\t" { lhs.removeLast() } }
        dropSpaces()
        guard lhs.last == "=" else { return Result() }
        lhs.removeLast()
        if let op = lhs.last, op == "=" || op == "~" { lhs.removeLast() }
        dropSpaces()
        let property = String(lhs.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        guard !property.isEmpty,
              let definition = host.world.registry.definition(forProperty: property),
              case .enumeration(let e) = definition.valueType else { return Result() }
        return Result(matches: e.cases.filter { $0.hasPrefix(partial) }, closingCharacter: quote)
    }

    // MARK: Lua paths

    /// `a.b.c` + `.` or `:` + partial name.
    private func completePath(_ word: String) -> [String] {
        guard let sep = word.lastIndex(where: { $0 == "." || $0 == ":" }) else {
            return names(ofGlobalsMatching: word)
        }
        let path = word[..<sep]
        let partial = String(word[word.index(after: sep)...])
        let methodsOnly = word[sep] == ":"
        guard !path.contains(":") else { return [] }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else { return [] }
        let base = L.top
        defer { L.setTop(base) }
        guard lua_checkstack(L, 8) != 0 else { return [] }
        L.pushGlobals()
        for key in keys {
            guard pushMember(of: L.top, key) else { return [] }
            tl_remove(L, -2)
        }
        let candidates = memberNames(at: L.top, methodsOnly: methodsOnly)
        let prefix = String(path) + String(word[sep])
        return filter(candidates, partial).map { prefix + $0 }
    }

    private func names(ofGlobalsMatching partial: String) -> [String] {
        let base = L.top
        defer { L.setTop(base) }
        L.pushGlobals()
        return filter(memberNames(at: L.top, methodsOnly: false) + Completer.keywords, partial)
    }

    /// Pushes `value[key]` for the value at `i` without running code.
    private func pushMember(of i: Int32, _ key: String) -> Bool {
        if host.pushMemberWithoutSideEffects(ofObjectAt: i, key: key) { return true }
        if tl_rawlookup(L, i, key) != LUA_TNIL { return true }
        L.pop()
        return false
    }

    /// What can follow `value.` (or `value:` with `methodsOnly`).
    private func memberNames(at i: Int32, methodsOnly: Bool) -> [String] {
        if let names = host.memberNames(ofObjectAt: i, methodsOnly: methodsOnly) { return names }
        var names: [String] = []
        // Raw keys of the value (if a table), then of each `__index` table.
        lua_pushvalue(L, i)
        for _ in 0..<32 {
            if lua_type(L, -1) == LUA_TTABLE {
                L.forEachStringKey(-1) { key, type in
                    if !methodsOnly || type == LUA_TFUNCTION { names.append(key) }
                }
            }
            guard lua_getmetatable(L, -1) != 0 else { break }
            L.rawGet(-1, "__index")
            tl_remove(L, -2)
            tl_remove(L, -2)
            guard lua_type(L, -1) == LUA_TTABLE else { break }
        }
        L.pop()
        return names
    }

    /// Identifiers starting with `partial`, sorted, without duplicates;
    /// names starting with "__" only when asked for.
    private func filter(_ names: [String], _ partial: String) -> [String] {
        let showHidden = partial.hasPrefix("__")
        var seen = Set<String>()
        return names.filter { name in
            name.hasPrefix(partial) && (showHidden || !name.hasPrefix("__")) && isIdentifier(name) && seen.insert(name).inserted
        }.sorted()
    }

    private func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

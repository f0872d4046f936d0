import TraitEngine

// What `--help`, the man page and the shell completions say about options,
// from one set of tables: lua.c's options here, TraitLab's host options in
// HostOptions.swift, `traitlab test`'s own here. `traitlab --help` and
// `traitlab test --help` print them, `traitlab man` writes them as roff for
// traitlab(1), `traitlab completions SHELL` offers them (ShellCompletions.swift),
// so none of the three can name an option the others do not.

/// One line of a usage: an option's spellings, the word it takes and its help.
struct UsageLine {
    let names: [String]
    let argument: String?
    let help: String

    init(_ names: [String], _ argument: String?, _ help: String) {
        self.names = names
        self.argument = argument
        self.help = help
    }

    /// "-j, --jobs N"
    var head: String { names.joined(separator: ", ") + (argument.map { " " + $0 } ?? "") }
}

extension HostOption {
    var usage: UsageLine { UsageLine([name], argument, help) }
}

/// lua.c's options, as `lua5.4` spells them (lua.c's print_usage), and the help.
let interpreterOptions: [UsageLine] = [
    UsageLine(["-e"], "stat", "execute string 'stat'"),
    UsageLine(["-i"], nil, "enter interactive mode after executing 'script'"),
    UsageLine(["-l"], "mod", "require library 'mod' into global 'mod'"),
    UsageLine(["-l"], "g=mod", "require library 'mod' into global 'g'"),
    UsageLine(["-v", "--version"], nil, "show version information: TraitLab's, Lua's and busted's"),
    UsageLine(["-E"], nil, "ignore environment variables (LUA_INIT, LUA_PATH, TRAITLAB_PLUGIN_PATH ...)"),
    UsageLine(["-W"], nil, "turn warnings on"),
    UsageLine(["--"], nil, "stop handling options"),
    UsageLine(["-"], nil, "stop handling options and execute stdin"),
]

let helpLine = UsageLine(["-h", "--help"], nil, "show this help")

/// `traitlab test`'s own options (TestCommand.swift reads them); the host
/// options it takes follow them in its help.
let testOwnOptions: [UsageLine] = [
    UsageLine(["--format"], "FORMAT", "text (busted's default handler), tap, junit or json; junit and json write only their document on standard output"),
    UsageLine(["-j", "--jobs"], "N", "run the spec files in N worker processes, one merged report"),
    UsageLine(["--update-snapshots"], nil, "assert.matches_snapshot writes the dump it sees to its snapshot file instead of comparing (accepting changes); in a matrix, each combination's own file"),
    UsageLine(["--shard"], "K/N", "run the K-th (1 to N) of N slices of the spec files and matrix combinations; the N slices together run each once (also Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX, which counts from 0)"),
]

/// The formats `--format` takes.
let testFormats = ["text", "tap", "junit", "json"]

/// `traitlab`'s subcommands, with what each does, for the man page and the completions.
let subcommands: [(name: String, synopsis: String, help: String)] = [
    ("test", "[paths...] [busted's options] [TraitLab's options]",
     "run busted's specs inside TraitLab (busted's options after TraitLab's in traitlab test --help)"),
    ("devices", "[--json]", "list the device catalogue: sizes, scales, size classes per orientation, sources"),
    ("module-path", "", "print the folder holding traitlab.so, for lua5.4's LUA_CPATH"),
    ("types-path", "", "print the folder holding the lua-language-server definitions (traitlab.d.lua)"),
    ("swift", "export|import ...", "Swift source from scripts and plugins, plugins from Swift (traitlab swift --help)"),
    ("completions", "bash|zsh|fish", "print the completion script for a shell"),
    ("man", "", "print this manual page as roff"),
]

/// `lines` as help text: a head column of `width`, the help wrapped beside it.
func renderUsage(_ lines: [UsageLine], width: Int = 24) -> String {
    var out = ""
    let indent = String(repeating: " ", count: width)
    for line in lines {
        let head = "  " + line.head
        let text = wrap(line.help, width: 80 - width)
        if head.count < width {
            out += head + String(repeating: " ", count: width - head.count) + text[0] + "\n"
        } else {
            out += head + "\n" + indent + text[0] + "\n"
        }
        for more in text.dropFirst() { out += indent + more + "\n" }
    }
    return out
}

/// The host options `names` allows, grouped under their headings. A list
/// of values (`NAME[,NAME...]`) makes a matrix, which only `traitlab test`
/// runs: without `lists` each option shows its one value (`NAME`).
func hostOptionGroups(among names: Set<String>? = nil, lists: Bool = false) -> [(title: String, lines: [UsageLine])] {
    OptionGroup.allCases.compactMap { group in
        let rows = hostOptions.filter { $0.group == group && (names?.contains($0.name) ?? true) }
        return rows.isEmpty ? nil : (group.rawValue, rows.map { row in
            guard !lists, let argument = row.argument, let list = argument.firstRange(of: "[,") else { return row.usage }
            return UsageLine([row.name], String(argument[..<list.lowerBound]), row.help)
        })
    }
}

/// The help lines of the rows `names` allows, grouped.
func hostOptionsHelp(among names: Set<String>? = nil, lists: Bool = false) -> String {
    hostOptionGroups(among: names, lists: lists).map { $0.title + ":\n" + renderUsage($0.lines) }.joined()
}

// MARK: - traitlab(1)

/// `traitlab man`: the manual page traitlab(1), in roff (man(7)).
func runManCommand(_ args: [String]) -> Int32 {
    guard args.isEmpty else { return usageFailure("man takes no arguments") }
    writeOut(manPage())
    return 0
}

/// Text for roff: backslashes doubled, hyphens as `\-` (so they stay
/// hyphens a reader can copy), a leading dot or quote escaped.
private func roff(_ text: String) -> String {
    var s = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
    return s
}

/// A tagged paragraph per line: the option in bold, its word in italics.
private func roffOptions(_ lines: [UsageLine]) -> String {
    lines.map { line in
        let names = line.names.map { "\\fB" + roff($0) + "\\fR" }.joined(separator: ", ")
        let argument = line.argument.map { " \\fI" + roff($0) + "\\fR" } ?? ""
        return ".TP\n" + names + argument + "\n" + roff(line.help) + "\n"
    }.joined()
}

func manPage() -> String {
    var m = """
    .TH TRAITLAB 1 "" "TraitLab \(traitLabVersion)" "User Commands"
    .nh
    .SH NAME
    traitlab \\- UIKit's trait system on Linux: a Lua 5.4 interpreter, REPL and busted test runner
    .SH SYNOPSIS
    .B traitlab
    [\\fIoptions\\fR] [\\fIscript\\fR [\\fIargs\\fR]]

    """
    for c in subcommands {
        m += ".br\n.B traitlab \(c.name)\n" + (c.synopsis.isEmpty ? "" : roff(c.synopsis) + "\n")
    }
    m += """
    .SH DESCRIPTION
    TraitLab reproduces UIKit's trait system (trait collections, custom traits, overrides,
    change registration, the update cycle) with Lua to drive it.
    .B traitlab
    runs a script as
    .BR lua5.4 (1)
    does; with no script it starts the REPL when standard input is a terminal, and otherwise
    runs standard input as a chunk. After each chunk it runs one update, as an app's run loop would.
    .SH OPTIONS
    Options as in lua5.4:

    """
    m += roffOptions(interpreterOptions + [helpLine])
    for group in hostOptionGroups() {
        m += ".SS " + roff(group.title) + "\n" + roffOptions(group.lines)
    }
    m += ".SH COMMANDS\n"
    for c in subcommands {
        m += ".TP\n\\fBtraitlab \(c.name)\\fR" + (c.synopsis.isEmpty ? "" : " " + roff(c.synopsis)) + "\n" + roff(c.help) + "\n"
    }
    m += """
    .SS traitlab test
    busted (Debian's lua\\-busted) running inside TraitLab: every busted option,
    .I .busted
    file, tag, helper and output handler works as under
    .BR busted ,
    and each spec file gets a fresh engine world. TraitLab adds these options:

    """
    m += roffOptions(testOwnOptions)
    m += ".PP\nand takes these of the options above, applied to spec code: "
    m += hostOptions.filter { testHostOptions.contains($0.name) }.map { "\\fB" + roff($0.name) + "\\fR" }.joined(separator: ", ") + ".\n"
    m += """
    Several values of \\fB\\-\\-device\\fR, \\fB\\-\\-orientation\\fR, \\fB\\-\\-scene\\-size\\fR, \\fB\\-\\-ios\\fR
    or \\fB\\-\\-screen\\fR make a matrix: every spec file runs once per combination (those the
    device does not offer are left out), with its own snapshot files;
    \\fB\\-\\-shard\\fR \\fIK/N\\fR runs one of N slices of it. Text and TAP reports end with the line
    .IR "N passed, N failed" .
    .SH EXIT STATUS
    0 on success, 1 when the script or a test fails, 2 on a usage error.
    .SH FILES
    .TP
    .I $(traitlab module\\-path)/traitlab.so
    the engine as a C module for the stock lua5.4 (require "traitlab")
    .TP
    .I $(traitlab types\\-path)/traitlab.d.lua
    definitions for lua\\-language\\-server
    .TP
    .I $XDG_CONFIG_HOME/traitlab/plugins
    the last folder searched for plugins
    .SH SEE ALSO
    .BR lua5.4 (1),
    .BR luacheck (1),
    busted's own help (traitlab test \\-\\-help);
    the guide and the command line's reference in TraitLab's docs (docs/guide.md, docs/cli.md)

    """
    return m
}

import TraitEngine

// `traitlab completions bash|zsh|fish`: a completion script for the shell,
// written from the tables the help is written from (Usage.swift,
// HostOptions.swift) and from the engine's catalogues (devices, OS versions,
// system traits and their cases), so a script written by this binary offers
// exactly what this binary takes. scripts/install.sh installs the three where
// each shell looks: bash-completion's completions folder, zsh's
// site-functions, fish's vendor_completions.d.

func runCompletionsCommand(_ args: [String]) -> Int32 {
    guard args.count == 1 else { return usageFailure("completions needs one shell: bash, zsh or fish") }
    let words = CompletionWords()
    switch args[0] {
    case "bash": writeOut(words.bash())
    case "zsh": writeOut(words.zsh())
    case "fish": writeOut(words.fish())
    default: return usageFailure("completions: unknown shell '\(args[0])' (bash, zsh or fish)")
    }
    return 0
}

/// What the scripts offer.
private struct CompletionWords {
    /// The interpreter's options, then the host options, then -h/--help.
    let interpreter: [UsageLine] = interpreterOptions.filter { $0.names != ["-"] && $0.names != ["--"] }
        + hostOptions.map(\.usage) + [helpLine]
    /// `traitlab test`'s options: its own, then the host options it takes.
    let test: [UsageLine] = testOwnOptions + hostOptions.filter { testHostOptions.contains($0.name) }.map(\.usage)
        + [UsageLine(["-h", "--help"], nil, "TraitLab's options, then busted's"), UsageLine(["--version"], nil, "TraitLab's, Lua's and busted's versions")]
    let devices = DeviceCatalogue.devices.map(\.name)
    let versions = OSVersion.supported.map { String($0.major) }
    let hierarchies = HierarchyMode.allCases.map(\.rawValue)
    let orientations = Orientation.allCases.map(\.rawValue)
    /// `--scene-size`'s named sizes (a size in points, `WxH`, is typed).
    let sceneSizes = SceneSize.named.map(\.description)
    let shells = ["bash", "zsh", "fish"]
    /// `--screen` values: `trait=` for each system trait, and `trait=case`
    /// for each case of the traits that are enumerations.
    let screenValues: [String] = SystemTraits.all.flatMap { def -> [String] in
        if case .enumeration(let e) = def.valueType { return e.cases.map { def.property + "=" + $0 } }
        if case .boolean = def.valueType { return [def.property + "=true", def.property + "=false"] }
        return [def.property + "="]
    }

    /// The values an option's word takes, or nil for a file or folder.
    func values(of option: String) -> [String]? {
        switch option {
        case "--device": return devices
        case "--ios": return versions
        case "--orientation": return orientations
        case "--scene-size": return sceneSizes
        case "--screen": return screenValues
        case "--hierarchy": return hierarchies
        case "--format": return testFormats
        default: return nil
        }
    }

    /// Options whose word is a folder; other options with a word take a file.
    let folderOptions: Set<String> = ["--plugin-path", "--assets"]
    /// Options whose word is neither a file nor a listed value: offer nothing.
    let freeOptions: Set<String> = ["-e", "-l", "--timeout", "--memory-limit", "-j", "--jobs", "--shard"]

    var subcommandNames: [String] { subcommands.map(\.name) }

    // MARK: bash

    func bash() -> String {
        func array(_ name: String, _ items: [String]) -> String {
            "_traitlab_\(name)=(" + items.map(shellQuote).joined(separator: " ") + ")\n"
        }
        func wordOptions(_ lines: [UsageLine]) -> [String] { lines.filter { $0.argument != nil }.flatMap(\.names) }
        func flags(_ lines: [UsageLine]) -> [String] { Array(Set(lines.flatMap(\.names))).sorted() }
        var s = """
        # bash completion for traitlab (written by `traitlab completions bash`)

        """
        s += array("devices", devices) + array("versions", versions) + array("screen", screenValues)
        s += array("orientations", orientations) + array("scene_sizes", sceneSizes)
        s += array("hierarchies", hierarchies) + array("formats", testFormats) + array("subcommands", subcommandNames)
        s += array("options", flags(interpreter)) + array("test_options", flags(test))
        s += array("word_options", Array(Set(wordOptions(interpreter) + wordOptions(test))).sorted())
        s += array("folder_options", folderOptions.sorted()) + array("free_options", freeOptions.sorted())
        s += #"""

        # Offers the words of "$@" that start with $cur, quoted for the command line.
        _traitlab_offer() {
          local cur=$1 word; shift
          cur=${cur#[\"\']}
          cur=${cur//\\/}
          for word in "$@"; do
            [[ $word == "$cur"* ]] && COMPREPLY+=("$word")
          done
          compopt -o filenames 2>/dev/null   # bash quotes spaces and parentheses
        }

        _traitlab() {
          COMPREPLY=()
          local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev=
          ((cword > 0)) && prev=${COMP_WORDS[cword-1]}
          # --option=VALUE: bash splits the word at '='.
          if [[ $cur == = ]]; then cur=; prev=${COMP_WORDS[cword-1]}
          elif [[ $prev == = ]] && ((cword > 1)); then prev=${COMP_WORDS[cword-2]}
          fi
          case $prev in
            --device) _traitlab_offer "$cur" "${_traitlab_devices[@]}"; return ;;
            --ios) _traitlab_offer "$cur" "${_traitlab_versions[@]}"; return ;;
            --orientation) _traitlab_offer "$cur" "${_traitlab_orientations[@]}"; return ;;
            --scene-size) _traitlab_offer "$cur" "${_traitlab_scene_sizes[@]}"; return ;;
            --screen) compopt -o nospace 2>/dev/null; _traitlab_offer "$cur" "${_traitlab_screen[@]}"; return ;;
            --hierarchy) _traitlab_offer "$cur" "${_traitlab_hierarchies[@]}"; return ;;
            --format) _traitlab_offer "$cur" "${_traitlab_formats[@]}"; return ;;
          esac
          local w
          for w in "${_traitlab_folder_options[@]}"; do
            [[ $prev == "$w" ]] && { compopt -o dirnames 2>/dev/null; return; }
          done
          for w in "${_traitlab_free_options[@]}"; do [[ $prev == "$w" ]] && return; done
          for w in "${_traitlab_word_options[@]}"; do
            [[ $prev == "$w" ]] && { compopt -o default 2>/dev/null; return; }
          done
          local command=${COMP_WORDS[1]}
          if ((cword == 1)); then
            if [[ $cur == -* ]]; then _traitlab_offer "$cur" "${_traitlab_options[@]}"
            else _traitlab_offer "$cur" "${_traitlab_subcommands[@]}"; compopt -o default 2>/dev/null
            fi
            return
          fi
          case $command in
            test)
              if [[ $cur == -* ]]; then _traitlab_offer "$cur" "${_traitlab_test_options[@]}"
              else compopt -o default 2>/dev/null; fi ;;
            devices) ((cword == 2)) && _traitlab_offer "$cur" --json --help ;;
            completions) ((cword == 2)) && _traitlab_offer "$cur" bash zsh fish ;;
            swift) ((cword == 2)) && _traitlab_offer "$cur" export import --help || compopt -o default 2>/dev/null ;;
            module-path|types-path|man) ;;
            *)
              if [[ $cur == -* ]]; then _traitlab_offer "$cur" "${_traitlab_options[@]}"
              else compopt -o default 2>/dev/null; fi ;;
          esac
        }
        complete -F _traitlab traitlab

        """#
        return s
    }

    // MARK: zsh

    func zsh() -> String {
        func spec(_ line: UsageLine, command: String) -> [String] {
            let help = zshHelp(line.help)
            return Set(line.names).sorted().map { name in
                var s = (line.names.count > 1 ? "(" + line.names.joined(separator: " ") + ")" : "")
                s += name + (line.argument != nil && name.hasPrefix("--") ? "=" : "") + "[" + help + "]"
                if let arg = line.argument {
                    s += ":" + zshHelp(arg) + ":" + action(for: line.names)
                }
                return shellQuote(s)
            }
        }
        func action(for names: [String]) -> String {
            let name = names.last ?? ""
            if values(of: name) != nil { return "_traitlab_values " + name.dropFirst(2).replacing("-", with: "_") }
            if folderOptions.contains(name) { return "_files -/" }
            if freeOptions.contains(name) { return " " }
            return "_files"
        }
        func array(_ name: String, _ items: [String]) -> String {
            "_traitlab_\(name)=(" + items.map(shellQuote).joined(separator: " ") + ")\n"
        }
        var s = """
        #compdef traitlab
        # zsh completion for traitlab (written by `traitlab completions zsh`)

        typeset -ga _traitlab_device _traitlab_ios _traitlab_screen _traitlab_hierarchy _traitlab_format
        typeset -ga _traitlab_orientation _traitlab_scene_size

        """
        s += array("device", devices) + array("ios", versions) + array("screen", screenValues)
        s += array("hierarchy", hierarchies) + array("format", testFormats)
        s += array("orientation", orientations) + array("scene_size", sceneSizes)
        let interpreterSpecs = interpreter.flatMap { spec($0, command: "") }
        let testSpecs = test.flatMap { spec($0, command: "test") }
        let commands = subcommands.map { shellQuote($0.name + ":" + zshHelp($0.help)) }
        s += #"""

        # _traitlab_values [compadd's options] NAME: the words of _traitlab_NAME
        # (compadd quotes them); _arguments passes its options first.
        _traitlab_values() {
          local name=${@[-1]}
          local -a values options
          options=("${@[1,-2]}")
          values=("${(@P)${:-_traitlab_$name}}")
          if [[ $name == screen ]]; then options+=(-S ''); fi
          compadd "${options[@]}" -a values
        }

        _traitlab_commands() {
          local -a commands
          commands=(\#(commands.joined(separator: " ")))
          _describe -t commands 'traitlab command' commands
          _files
        }

        _traitlab() {
          case $words[2] in
            test)
              shift words; (( CURRENT-- ))
              _arguments -s \#(testSpecs.joined(separator: " ")) '*:spec file or folder:_files' ;;
            devices) _arguments '--json[print the catalogue as JSON]' '(-h --help)'{-h,--help}'[show the usage]' ;;
            completions) _arguments '2:shell:(bash zsh fish)' ;;
            swift) _arguments '2:command:(export import)' '*:file:_files' ;;
            module-path|types-path|man) ;;
            *)
              _arguments -s \#(interpreterSpecs.joined(separator: " ")) '1: :_traitlab_commands' '*:script arguments:_files' ;;
          esac
        }

        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
          _traitlab "$@"
        else
          compdef _traitlab traitlab
        fi

        """#
        return s
    }

    // MARK: fish

    func fish() -> String {
        var s = """
        # fish completion for traitlab (written by `traitlab completions fish`)
        complete -c traitlab -f

        """
        let noCommand = "not __fish_seen_subcommand_from " + subcommandNames.joined(separator: " ")
        for c in subcommands {
            s += "complete -c traitlab -n \(shellQuote(noCommand)) -a \(c.name) -d \(shellQuote(c.help))\n"
        }
        func lines(_ list: [UsageLine], condition: String) -> String {
            var out = ""
            for line in list {
                var flags = ""
                for name in line.names {
                    if name.hasPrefix("--") { flags += " -l " + name.dropFirst(2) } else { flags += " -o " + name.dropFirst() }
                }
                let name = line.names.last ?? ""
                var words = ""
                if line.argument != nil {
                    if let v = values(of: name) {
                        words = " -x -a " + shellQuote(v.map(fishQuote).joined(separator: " "))
                    } else if folderOptions.contains(name) {
                        words = " -x -a '(__fish_complete_directories)'"
                    } else if freeOptions.contains(name) {
                        words = " -x"
                    } else {
                        words = " -r -F"
                    }
                }
                out += "complete -c traitlab -n \(shellQuote(condition))\(flags)\(words) -d \(shellQuote(line.help))\n"
            }
            return out
        }
        s += lines(interpreter, condition: noCommand)
        s += lines(test, condition: "__fish_seen_subcommand_from test")
        s += "complete -c traitlab -n '__fish_seen_subcommand_from test' -F\n"
        s += "complete -c traitlab -n '__fish_seen_subcommand_from devices' -l json -d 'print the catalogue as JSON'\n"
        s += "complete -c traitlab -n '__fish_seen_subcommand_from completions' -x -a 'bash zsh fish'\n"
        s += "complete -c traitlab -n '__fish_seen_subcommand_from swift' -a 'export import' -F\n"
        s += "complete -c traitlab -n \(shellQuote(noCommand)) -F\n"
        return s
    }
}

/// `text` in single quotes for sh, bash and zsh.
private func shellQuote(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
}

/// `text` as one word inside fish's `-a` list (itself single-quoted):
/// spaces and parentheses escaped with a backslash.
private func fishQuote(_ text: String) -> String {
    var out = ""
    for c in text {
        if " ()'\"\\$*?{}[];|&<>#~".contains(c) { out += "\\" }
        out.append(c)
    }
    return out
}

/// Help text inside a zsh _arguments spec, where brackets and colons are syntax.
private func zshHelp(_ text: String) -> String {
    text.replacing("[", with: "(").replacing("]", with: ")")
        .replacing(":", with: "\\:")
}

import Foundation
import PackagePlugin

/// Embeds the Lua sources of a target (the `lua` folder beside its Swift
/// files) into the build, as a Swift file the target compiles: TraitLab
/// needs no files at run time, and a change to any Lua file rebuilds by
/// itself (each file is an input of the command).
@main
struct EmbedLua: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directory.appending("lua")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.string)
            .filter { $0.hasSuffix(".lua") }
            .sorted()
        let inputs = names.map { folder.appending($0) }
        let output = context.pluginWorkDirectory.appending("EmbeddedLua.swift")
        return [
            .buildCommand(
                displayName: "Embedding the Lua sources of \(target.name)",
                executable: try context.tool(named: "embed-lua").path,
                arguments: [output.string] + inputs.map(\.string),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}

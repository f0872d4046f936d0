-- The talk's theme trait as a plugin: `traitlab --plugin theme` (with
-- --plugin-path examples/plugins) defines MyAppTheme and the Theme trait.
-- Edit and `:reload theme` in the REPL to try a change without restarting.
return {
  name = "theme",
  version = "1.0.0",
  description = "App color themes (WWDC23 'Unleash the UIKit trait system')",
  setup = function(api)
    local MyAppTheme = api.traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
    api.traits.define {
      name = "Theme",
      type = MyAppTheme,
      default = MyAppTheme.standard,
      identifier = "com.example.theme",
      affectsColorAppearance = true,
      property = "myAppTheme",
    }
  end,
}

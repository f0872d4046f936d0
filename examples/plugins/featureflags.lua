-- A feature-flag trait (from the custom-traits article): a Boolean trait that a
-- window scene overrides and every view below reads. Requires the theme plugin
-- to show plugin requirements.
return {
  name = "featureflags",
  version = "1.0.0",
  description = "Feature flags as traits",
  requires = { "theme" },
  setup = function(api)
    api.traits.define {
      name = "NewCheckoutEnabled",
      default = false,
      identifier = "com.example.feature.newCheckout",
      property = "newCheckoutEnabled",
    }
  end,
}

// The domain's widget values (`Widget`, `Content`, `Template`, `Trend`,
// the patches, `FieldViolation`) are part of this library's API: one
// `import GaugeClient` brings them in.
@_exported import GaugeDomain

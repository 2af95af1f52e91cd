import GaugeClient

/// Content for the tests: a gauge from 0 to 100.
func gaugeContent(_ value: Double, label: String? = nil) -> ContentPatch {
  ContentPatch(
    template: .gauge(GaugePatch(value: value, minValue: 0, maxValue: 100)), label: label)
}

/// Waits for `condition`, polling, at most `seconds`: a bound against hangs,
/// generous because CI runs these under ASan beside hundreds of other tests.
func eventually(seconds: Double = 30, _ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return await condition()
}

/// What a call threw, or nil when it returned.
func failure<T>(_ body: () async throws -> T) async -> GaugeError? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error as? GaugeError ?? GaugeError(code: .unknown, message: "not a GaugeError: \(error)")
  }
}

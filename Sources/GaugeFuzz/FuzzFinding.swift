/// A rule the server broke on some input: not a crash, which the fuzzer
/// sees for itself, but a wrong answer, a call that never ends, or a store
/// left holding what validation should have refused.
public struct FuzzFinding: Error, CustomStringConvertible, Sendable {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}

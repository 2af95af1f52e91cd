import Testing

@testable import ProtoJSON

@Suite struct NestingLimitTests {
  private let scalars = HandBuiltDescriptors.scalars

  /// `levels` objects, each the `child` of the one before.
  private func nestedWire(_ levels: Int) -> WireBytes {
    var wire = WireBytes().int32(11, 1)
    for _ in 1..<levels { wire = WireBytes().message(16, wire) }
    return wire
  }

  private func nestedJSON(_ levels: Int) -> String {
    String(repeating: #"{"child":"#, count: levels - 1) + #"{"int32Value":1}"#
      + String(repeating: "}", count: levels - 1)
  }

  @Test func transcodesARecursiveMessageUpToTheLimitBothWays() throws {
    #expect(try scalars.json(nestedWire(63)) == nestedJSON(63))
    #expect(try scalars.binary(nestedJSON(63)) == nestedWire(63).bytes)
  }

  @Test func refusesDeeperNestingNamingWhereItStops() {
    let path = Array(repeating: "child", count: 63).joined(separator: ".")
    let error = ProtoJSONError(field: path, rule: "nests deeper than 63 levels")
    #expect(scalars.binaryError(nestedWire(64)) == error)
    #expect(scalars.binaryError(nestedWire(1_000)) == error)
    #expect(scalars.jsonError(nestedJSON(64)) == error)
  }

  @Test func countsArraysAsLevels() {
    let json =
      String(repeating: #"{"child":"#, count: 62) + #"{"floats":[1]}"#
      + String(repeating: "}", count: 62)
    let path = Array(repeating: "child", count: 62).joined(separator: ".") + ".floats"
    #expect(
      scalars.jsonError(json) == ProtoJSONError(field: path, rule: "nests deeper than 63 levels"))
  }
}

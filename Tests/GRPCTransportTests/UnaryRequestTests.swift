import GRPCCore
import Testing

@testable import GRPCTransport

/// A unary method takes exactly one request message.
@Suite struct UnaryRequestTests {
  @Test func oneMessageIsTheRequest() throws {
    var request = UnaryRequest<[UInt8]>()
    request.receive { [7] }
    #expect(try request.completed.get() == [7])
  }

  @Test func noMessageIsUnimplemented() {
    let request = UnaryRequest<[UInt8]>()
    #expect(
      request.completed
        == .failure(GRPCStatus(.unimplemented, "unary method received no request message")))
  }

  @Test func aSecondMessageIsUnimplementedAndNotMade() {
    var request = UnaryRequest<[UInt8]>()
    var made = 0
    for byte in [UInt8(1), 2, 3] {
      request.receive {
        made += 1
        return [byte]
      }
    }
    #expect(made == 1)
    #expect(
      request.completed
        == .failure(
          GRPCStatus(.unimplemented, "unary method received more than one request message")))
  }

  @Test func takingTheRequestAnswersAsCompletedAndLeavesNoneBehind() throws {
    var request = UnaryRequest<[UInt8]>()
    request.receive { [7] }
    #expect(try request.takeCompleted().get() == [7])
    #expect(
      request.completed
        == .failure(GRPCStatus(.unimplemented, "unary method received no request message")))

    var twice = UnaryRequest<[UInt8]>()
    twice.receive { [1] }
    twice.receive { [2] }
    #expect(twice.takeCompleted() == twice.completed)
  }
}

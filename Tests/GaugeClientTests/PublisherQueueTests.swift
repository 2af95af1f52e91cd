import GaugeWire
import Testing

@testable import GaugeClient

/// The publisher's queue without a server: what it hands the loop decodes
/// to the values offered, in order.
@Suite struct PublisherQueueTests {
  /// The (id, value) of each framed message in `framed`.
  private func messages(in framed: [UInt8]) throws -> [(String, Double?)] {
    var out: [(String, Double?)] = []
    var offset = 0
    while offset < framed.count {
      #expect(framed[offset] == 0, "uncompressed")
      let length = framed[offset + 1..<offset + 5].reduce(0) { $0 << 8 | Int($1) }
      let body = Array(framed[offset + 5..<offset + 5 + length])
      out.append(try body.withUnsafeBytes { try WidgetWire.decodeValueUpdate($0) })
      offset += 5 + length
    }
    return out
  }

  @Test func valuesForSeveralWidgetsComeOutFramedInOrder() throws {
    let queue = PublisherQueue(window: 8)
    let offers = [("cpu", 1.5), ("mem", -2.0), ("cpu", 3.0), ("disk", 0.0)]
    for (id, value) in offers { _ = queue.offer(id: id, value: value) }
    let batch = queue.takeOutbox()
    #expect(batch.count == 4)
    let decoded = try messages(in: batch.framed)
    #expect(decoded.map(\.0) == offers.map(\.0))
    #expect(decoded.map(\.1) == offers.map { $0.1 })
    #expect(queue.takeOutbox().count == 0)
  }

  @Test func moreWidgetsThanItRemembersStillEncodeRight() throws {
    let count = PublisherQueue.rememberedWidgets + 10
    let queue = PublisherQueue(window: count + 10)
    for index in 0..<count { _ = queue.offer(id: "w\(index)", value: Double(index)) }
    // Ids seen before the cache started over, again.
    for index in 0..<10 { _ = queue.offer(id: "w\(index)", value: -Double(index)) }
    let decoded = try messages(in: queue.takeOutbox().framed)
    #expect(decoded.count == count + 10)
    #expect(decoded[count - 1].0 == "w\(count - 1)" && decoded[count - 1].1 == Double(count - 1))
    #expect(decoded[count + 9].0 == "w9" && decoded[count + 9].1 == -9)
  }

  @Test func aFullWindowWaitsAndAFinishedQueueRefuses() {
    let queue = PublisherQueue(window: 1)
    guard case .queuedNeedsDrain = queue.offer(id: "a", value: 1) else {
      Issue.record("the first value should ask for a drain")
      return
    }
    guard case .full = queue.offer(id: "a", value: 2) else {
      Issue.record("a full window should say so")
      return
    }
    queue.returnCredits(1)
    queue.beginFinishing()
    guard case .failed(let error) = queue.offer(id: "a", value: 3) else {
      Issue.record("a finished queue should refuse")
      return
    }
    #expect(error.code == .failedPrecondition)
  }
}

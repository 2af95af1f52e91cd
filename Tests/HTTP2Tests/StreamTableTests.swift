import Testing

@testable import HTTP2

/// What a connection keeps per stream, as far as the table cares.
private final class TestStream {
  let id: Int32

  init(id: Int32) {
    self.id = id
  }
}

@Suite struct StreamTableTests {
  @Test func agreesWithADictionaryThroughInsertsAndRemovals() {
    var table = StreamTable<TestStream>()
    var model: [Int32: TestStream] = [:]
    var generator = SystemRandomNumberGenerator()
    // Odd rising ids as clients open them, with runs long enough to wrap
    // the table and make probe chains, and removals in any order.
    var nextID: Int32 = 1
    for step in 0..<20_000 {
      if model.isEmpty || (model.count < 300 && Bool.random(using: &generator)) {
        let stream = TestStream(id: nextID)
        table[nextID] = stream
        model[nextID] = stream
        nextID += step % 7 == 0 ? 2 * 64 + 2 : 2
      } else {
        let id = model.keys.randomElement(using: &generator)!
        #expect(table.removeValue(forKey: id) === model.removeValue(forKey: id))
      }
      #expect(table.count == model.count)
      if step % 97 == 0 {
        for (id, stream) in model {
          #expect(table[id] === stream)
          #expect(table.unretained(id)?.takeUnretainedValue() === stream)
          #expect(table.contains(id))
        }
        #expect(table[nextID] == nil)
        #expect(table.unretained(nextID) == nil)
        #expect(!table.contains(nextID))
        #expect(table.displaced == table.countDisplaced())
        #expect(Set(table.values.map(\.id)) == Set(model.keys))
      }
    }
    for id in Array(model.keys) { table[id] = nil }
    #expect(table.displaced == 0)
    #expect(table.countDisplaced() == 0)
    #expect(table.isEmpty)
    #expect(table.values.isEmpty)
  }

  @Test func containsTheSoleStreamBeforeTheArraysExist() {
    var table = StreamTable<TestStream>()
    #expect(!table.contains(0))
    let stream = TestStream(id: 5)
    table[5] = stream
    #expect(table.contains(5))
    #expect(!table.contains(7))
    #expect(!table.contains(0))
    #expect(table.unretained(5)?.takeUnretainedValue() === stream)
    #expect(table.unretained(7) == nil)
    #expect(table.unretained(0) == nil)
  }
}

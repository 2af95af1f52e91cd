import GaugeJSON

/// One enum's values by number and by name, copied out of its protobuf-c
/// descriptor.
final class EnumSchema: Sendable {
  let fullName: String
  /// Ascending, with `names` in the same order. Aliases (one number, two
  /// names) keep the first name for output; both are accepted on input.
  let numbers: [Int32]
  let names: [[UInt8]]

  init(fullName: String, numbers: [Int32], names: [[UInt8]]) {
    self.fullName = fullName
    self.numbers = numbers
    self.names = names
  }

  /// The name JSON writes for `number`; nil for a number the enum lacks.
  func name(of number: Int32) -> [UInt8]? {
    var low = 0
    var high = numbers.count
    while low < high {
      let middle = (low + high) / 2
      if numbers[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low < numbers.count && numbers[low] == number ? names[low] : nil
  }

  func number(named name: JSONString) -> Int32? {
    for (index, known) in names.enumerated() where known.withUnsafeBytes({ name.equals($0) }) {
      return numbers[index]
    }
    return nil
  }
}

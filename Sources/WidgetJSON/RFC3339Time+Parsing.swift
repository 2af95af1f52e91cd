extension RFC3339Time {
  /// The Unix milliseconds of a time as `format` writes it
  /// (`2026-12-01T21:52:12.123Z`, years 0000 to 9999); nil for any other
  /// text. Reads back what gauged wrote, as `gauged import` does.
  package static func unixMilliseconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
      bytes[23] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ offset: Int, _ width: Int) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[offset..<offset + width] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      let millisecond = number(20, 3), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    // A day past its month's end (April 31) would name another date.
    guard civilDate(daysSinceEpoch: days) == (year, month, day) else { return nil }
    return days * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
  }

  /// The inverse of `civilDate`: days from 1970-01-01 to a proleptic
  /// Gregorian date, counted in 400-year eras from 0000-03-01 likewise.
  static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    let yearFromMarch = month <= 2 ? year - 1 : year
    let era = (yearFromMarch >= 0 ? yearFromMarch : yearFromMarch - 399) / 400
    let yearOfEra = yearFromMarch - era * 400
    let monthFromMarch = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

/// Unix milliseconds as RFC 3339 UTC with milliseconds
/// (`2026-12-01T21:52:12.123Z`), the REST face's time format. Written
/// into bytes on every widget answer, so it does plain arithmetic.
package enum RFC3339Time {
  package static func format(unixMilliseconds: Int64) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    append(unixMilliseconds: unixMilliseconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the time, quoted, as a JSON string value.
  package static func appendQuoted(unixMilliseconds: Int64, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    append(unixMilliseconds: unixMilliseconds, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  package static func append(unixMilliseconds: Int64, to bytes: inout [UInt8]) {
    let millisecondsPerDay: Int64 = 86_400_000
    let days = floorDivision(unixMilliseconds, millisecondsPerDay)
    let millisecondOfDay = unixMilliseconds - days * millisecondsPerDay
    let (year, month, day) = civilDate(daysSinceEpoch: days)
    guard (0...9999).contains(year) else {
      return appendAnyYear(year, month, day, millisecondOfDay, to: &bytes)
    }
    // Every field has a fixed width: laid out on the stack, appended once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
      func put(_ number: Int64, width: Int, at offset: Int) {
        var rest = number
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
          text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      put(year, width: 4, at: 0)
      text[4] = UInt8(ascii: "-")
      put(month, width: 2, at: 5)
      text[7] = UInt8(ascii: "-")
      put(day, width: 2, at: 8)
      text[10] = UInt8(ascii: "T")
      put(millisecondOfDay / 3_600_000, width: 2, at: 11)
      text[13] = UInt8(ascii: ":")
      put(millisecondOfDay / 60_000 % 60, width: 2, at: 14)
      text[16] = UInt8(ascii: ":")
      put(millisecondOfDay / 1000 % 60, width: 2, at: 17)
      text[19] = UInt8(ascii: ".")
      put(millisecondOfDay % 1000, width: 3, at: 20)
      text[23] = UInt8(ascii: "Z")
      bytes.append(contentsOf: UnsafeBufferPointer(text))
    }
  }

  /// The same for a year outside 0...9999 (before the common era, or past
  /// 9999), whose width varies.
  private static func appendAnyYear(
    _ year: Int64, _ month: Int64, _ day: Int64, _ millisecondOfDay: Int64,
    to bytes: inout [UInt8]
  ) {
    appendDigits(year, width: 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(month, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    appendDigits(day, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    appendDigits(millisecondOfDay / 3_600_000, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(millisecondOfDay / 60_000 % 60, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    appendDigits(millisecondOfDay / 1000 % 60, width: 2, to: &bytes)
    bytes.append(UInt8(ascii: "."))
    appendDigits(millisecondOfDay % 1000, width: 3, to: &bytes)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01. Counted
  /// in eras of 400 years (146,097 days, after which the calendar repeats)
  /// from 0000-03-01, so that the leap day ends each year of the count.
  static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let daysFromMarchOfYearZero = daysSinceEpoch + 719_468
    let era = floorDivision(daysFromMarchOfYearZero, 146_097)
    let dayOfEra = daysFromMarchOfYearZero - era * 146_097
    // Years of the era: every 4th is a leap year, but not every 100th,
    // though every 400th is (the era's last day).
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    // Months from March, of 31, 30, 31, 30, 31 days repeating: 153 days
    // every 5 months.
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func floorDivision(_ dividend: Int64, _ divisor: Int64) -> Int64 {
    let quotient = dividend / divisor
    return dividend % divisor < 0 ? quotient - 1 : quotient
  }

  /// `number` in decimal, zero-padded to `width`; a negative year (before
  /// year 0) keeps its sign.
  private static func appendDigits(_ number: Int64, width: Int, to bytes: inout [UInt8]) {
    if number < 0 {
      bytes.append(UInt8(ascii: "-"))
      return appendDigits(-number, width: width, to: &bytes)
    }
    var digits: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    var count = 0
    var rest = number
    if rest >= 10_000 {
      bytes.append(contentsOf: String(number).utf8)
      return
    }
    repeat {
      let digit = UInt8(ascii: "0") + UInt8(rest % 10)
      switch count {
      case 0: digits.0 = digit
      case 1: digits.1 = digit
      case 2: digits.2 = digit
      default: digits.3 = digit
      }
      rest /= 10
      count += 1
    } while rest > 0
    for _ in count..<max(count, width) { bytes.append(UInt8(ascii: "0")) }
    if count > 3 { bytes.append(digits.3) }
    if count > 2 { bytes.append(digits.2) }
    if count > 1 { bytes.append(digits.1) }
    bytes.append(digits.0)
  }
}

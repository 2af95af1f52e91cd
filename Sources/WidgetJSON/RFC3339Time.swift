/// Unix milliseconds as RFC 3339 UTC with milliseconds
/// (`2026-12-01T21:52:12.123Z`), the REST face's time format.
package enum RFC3339Time {
  package static func format(unixMilliseconds: Int64) -> String {
    let millisecondsPerDay: Int64 = 86_400_000
    var days = floorDivision(unixMilliseconds, millisecondsPerDay)
    let millisecondOfDay = unixMilliseconds - days * millisecondsPerDay

    // The Gregorian calendar repeats every 400 years (146,097 days), so
    // whole cycles move the year without walking them.
    let daysPerCycle: Int64 = 146_097
    var year = 1970 + 400 * floorDivision(days, daysPerCycle)
    days -= floorDivision(days, daysPerCycle) * daysPerCycle
    while days >= daysInYear(year) {
      days -= daysInYear(year)
      year += 1
    }
    var month = 1
    while days >= daysInMonth(month, of: year) {
      days -= daysInMonth(month, of: year)
      month += 1
    }
    let day = days + 1

    let hour = millisecondOfDay / 3_600_000
    let minute = millisecondOfDay / 60_000 % 60
    let second = millisecondOfDay / 1000 % 60
    let millisecond = millisecondOfDay % 1000
    return "\(padded(year, 4))-\(padded(Int64(month), 2))-\(padded(day, 2))"
      + "T\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
      + ".\(padded(millisecond, 3))Z"
  }

  private static func floorDivision(_ dividend: Int64, _ divisor: Int64) -> Int64 {
    let quotient = dividend / divisor
    return dividend % divisor < 0 ? quotient - 1 : quotient
  }

  private static func isLeap(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  private static func daysInYear(_ year: Int64) -> Int64 {
    isLeap(year) ? 366 : 365
  }

  private static func daysInMonth(_ month: Int, of year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func padded(_ number: Int64, _ width: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}

/// Unix milliseconds as `2026-11-29 14:51:24 UTC`, computed here rather
/// than through the C library's time zone state.
enum Timestamp {
  static func utc(ms: Int64) -> String {
    let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):"
      + "\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
  }

  /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
  /// `civil_from_days`).
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func two(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}

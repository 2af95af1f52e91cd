import Testing
import WidgetJSON

@Suite struct RFC3339TimeTests {
  /// A plain day-by-day count, slow and obvious, to hold the fast one to.
  private func walked(_ unixMilliseconds: Int64) -> String {
    var days = unixMilliseconds / 86_400_000
    let ms = unixMilliseconds % 86_400_000
    func leap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
    var year = 1970
    while days >= (leap(year) ? 366 : 365) {
      days -= leap(year) ? 366 : 365
      year += 1
    }
    let lengths = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    var month = 0
    while days >= lengths[month] {
      days -= Int64(lengths[month])
      month += 1
    }
    func pad(_ n: Int64, _ w: Int) -> String {
      String(repeating: "0", count: max(0, w - String(n).count)) + String(n)
    }
    return "\(pad(Int64(year), 4))-\(pad(Int64(month + 1), 2))-\(pad(days + 1, 2))"
      + "T\(pad(ms / 3_600_000, 2)):\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2))"
      + ".\(pad(ms % 1000, 3))Z"
  }

  @Test func knownInstants() {
    #expect(RFC3339Time.format(unixMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
    #expect(RFC3339Time.format(unixMilliseconds: 1_796_161_932_123) == "2026-12-01T21:52:12.123Z")
    // 2000 is a leap year (every 400th), 2100 is not.
    #expect(RFC3339Time.format(unixMilliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
    #expect(RFC3339Time.format(unixMilliseconds: 4_107_542_400_000) == "2100-03-01T00:00:00.000Z")
  }

  @Test func agreesWithADayByDayCountAcrossCenturies() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let instant = Int64.random(in: 0...(400 * 366 * 86_400_000), using: &generator)
      #expect(RFC3339Time.format(unixMilliseconds: instant) == walked(instant))
    }
    for day in Int64(0)..<3_000 {
      let instant = day * 86_400_000 + 86_399_999
      #expect(RFC3339Time.format(unixMilliseconds: instant) == walked(instant))
    }
  }
}

/// Size limits, in Unicode scalars for text. They keep one widget small
/// enough to fan out to many subscribers at a high update rate.
enum Limit {
  static let name = 256
  static let label = 256
  static let subtitle = 256
  static let unit = 32
  static let gaugeLabel = 64
  static let markLabel = 256
  static let marks = 16
  static let gradientStops = 2...8
}

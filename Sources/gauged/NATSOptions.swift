import GaugeNATS

/// Where `--nats` keeps the widgets: the servers and the bucket.
struct NATSOptions {
  var connection: NATSConnectionOptions
  var bucket: KVBucketSettings

  /// JetStream's stream names, which a bucket's name becomes part of:
  /// letters, digits, `-` and `_`.
  static func isValidBucketName(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy {
        switch $0 {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
          true
        default:
          false
        }
      }
  }
}

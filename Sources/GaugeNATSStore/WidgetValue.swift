import GaugeDomain
import GaugeWire

/// A widget as the bucket stores it: `gauge.v1.Widget` bytes, as the SQLite
/// store keeps its rows. The revision inside is the writer's placeholder;
/// the entry's revision (the bucket's sequence) is the widget's.
enum WidgetValue {
  static func encode(_ widget: Widget) -> [UInt8] {
    WidgetWire.encodeWidget(widget)
  }

  /// The widget stored at `revision`, or why the bytes are not one.
  static func decode(_ bytes: [UInt8], revision: UInt64) -> Result<Widget, WireError> {
    bytes.withUnsafeBytes { buffer in
      Result { () throws(WireError) -> Widget in
        var widget = try WidgetWire.decodeWidget(buffer)
        widget.revision = revision
        return widget
      }
    }
  }
}

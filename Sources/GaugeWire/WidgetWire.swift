/// gauge.v1 messages <-> GaugeDomain values, through protobuf-c.
///
/// Decoding keeps proto2 presence: an absent field is nil, a present empty
/// string is "". Encoding a `Widget` writes every field it has; trend and
/// style are left out at their zero value and optional strings and bounds
/// when nil, so a widget reads back the way it was written.
public enum WidgetWire {}

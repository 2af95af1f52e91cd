/// gauge.v1 messages <-> GaugeDomain values, through protobuf-c.
///
/// Decoding keeps proto2 presence: an absent field is nil, a present empty
/// string is "". Encoding a `Widget` writes every field it has, trend and
/// style included even at their zero value, so a reader never has to know
/// the defaults; optional strings and bounds are written only when non-nil.
public enum WidgetWire {}

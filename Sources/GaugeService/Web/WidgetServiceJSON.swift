import GRPCCore
import GRPCTransport
import GaugeDomain
import GaugeProtos
import GaugeWire
import ProtoJSON

/// Connect's JSON codec for `gauge.v1.WidgetService`: the proto3 JSON
/// mapping of each method's messages, made once from the descriptors
/// protoc-c generated from `proto/`, keyed by method path.
public enum WidgetServiceJSON {
  public static let codecs: [String: any WebRPCJSONCodec] = {
    let service = withUnsafePointer(to: gauge__v1__widget_service__descriptor) {
      ProtoJSONService($0)
    }
    var codecs: [String: any WebRPCJSONCodec] = [:]
    for name in WidgetService.methods {
      guard let method = service.method(name) else { continue }
      codecs["/\(service.fullName)/\(name)"] = ProtoJSONMethodCodec(
        input: method.input, output: method.output)
    }
    return codecs
  }()
}

/// One method's request and response mappings. A request the mapping
/// refuses is INVALID_ARGUMENT naming the field and the rule, with the
/// same `google.rpc.BadRequest` detail validation gives.
struct ProtoJSONMethodCodec: WebRPCJSONCodec {
  let input: ProtoJSONMessage
  let output: ProtoJSONMessage

  func requestBinary(fromJSON json: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8] {
    do throws(ProtoJSONError) {
      return try input.binary(fromJSON: json)
    } catch {
      let code = GRPCStatus.Code.invalidArgument
      let message = error.description
      throw GRPCStatus(
        code, message,
        details: StatusDetailsWire.encodeBadRequest(
          code: code.rawValue, message: message,
          violations: [FieldViolation(field: error.field, description: error.rule)]))
    }
  }

  func responseJSON(fromBinary binary: UnsafeRawBufferPointer) throws(GRPCStatus) -> [UInt8] {
    do throws(ProtoJSONError) {
      return try output.json(fromBinary: binary)
    } catch {
      throw GRPCStatus(.internal, "the response cannot be written as JSON: \(error)")
    }
  }
}

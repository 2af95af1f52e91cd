import CProtobufC
import GaugeProtos
import ProtobufCSupport

/// protobuf-c ⇄ grpc.testing messages. Decoders return nil when the bytes
/// are not the message.
enum InteropWire {
  static func decodeSimpleRequest(_ bytes: [UInt8]) -> SimpleRequest? {
    withUnpacked(
      bytes, grpc__testing__simple_request__unpack, grpc__testing__simple_request__free_unpacked
    ) { message in
      let request = message.pointee
      return SimpleRequest(
        responseType: request.has_response_type != 0 ? Int32(request.response_type.rawValue) : 0,
        responseSize: request.has_response_size != 0 ? request.response_size : 0,
        responseCompressed: bool(request.response_compressed),
        responseStatus: echoStatus(request.response_status),
        expectCompressed: bool(request.expect_compressed),
        fillServerID: request.has_fill_server_id != 0 && request.fill_server_id != 0)
    }
  }

  static func decodeStreamingOutputCallRequest(_ bytes: [UInt8]) -> StreamingOutputCallRequest? {
    withUnpacked(
      bytes, grpc__testing__streaming_output_call_request__unpack,
      grpc__testing__streaming_output_call_request__free_unpacked
    ) { message in
      let request = message.pointee
      let parameters = UnsafeBufferPointer(
        start: request.response_parameters, count: request.n_response_parameters
      ).compactMap { pointer in
        pointer.map { parameter in
          ResponseParameters(
            size: parameter.pointee.has_size != 0 ? parameter.pointee.size : 0,
            intervalMicroseconds: parameter.pointee.has_interval_us != 0
              ? parameter.pointee.interval_us : 0,
            compressed: bool(parameter.pointee.compressed))
        }
      }
      return StreamingOutputCallRequest(
        responseType: request.has_response_type != 0 ? Int32(request.response_type.rawValue) : 0,
        responseParameters: parameters,
        responseStatus: echoStatus(request.response_status))
    }
  }

  static func decodeStreamingInputCallRequest(_ bytes: [UInt8]) -> StreamingInputCallRequest? {
    withUnpacked(
      bytes, grpc__testing__streaming_input_call_request__unpack,
      grpc__testing__streaming_input_call_request__free_unpacked
    ) { message in
      StreamingInputCallRequest(
        payloadSize: payloadSize(message.pointee.payload),
        expectCompressed: bool(message.pointee.expect_compressed))
    }
  }

  /// Any bytes that parse as a message parse as Empty (unknown fields).
  static func isEmpty(_ bytes: [UInt8]) -> Bool {
    withUnpacked(bytes, grpc__testing__empty__unpack, grpc__testing__empty__free_unpacked) { _ in
      true
    } ?? false
  }

  /// SimpleResponse { payload: `payload` zeros (or `body`), server_id }.
  static func encodeSimpleResponse(payloadSize: Int, body: [UInt8]? = nil, serverID: String?)
    -> [UInt8]
  {
    var scratch = CScratch()
    let response = scratch.message(grpc__testing__simple_response__init)
    response.pointee.payload = payload(size: payloadSize, body: body, in: &scratch)
    if let serverID { response.pointee.server_id = scratch.cString(serverID) }
    return packed(
      response, grpc__testing__simple_response__get_packed_size,
      grpc__testing__simple_response__pack)
  }

  static func encodeStreamingOutputCallResponse(payloadSize: Int) -> [UInt8] {
    var scratch = CScratch()
    let response = scratch.message(grpc__testing__streaming_output_call_response__init)
    response.pointee.payload = payload(size: payloadSize, body: nil, in: &scratch)
    return packed(
      response, grpc__testing__streaming_output_call_response__get_packed_size,
      grpc__testing__streaming_output_call_response__pack)
  }

  static func encodeStreamingInputCallResponse(aggregatedPayloadSize: Int32) -> [UInt8] {
    var scratch = CScratch()
    let response = scratch.message(grpc__testing__streaming_input_call_response__init)
    response.pointee.has_aggregated_payload_size = 1
    response.pointee.aggregated_payload_size = aggregatedPayloadSize
    return packed(
      response, grpc__testing__streaming_input_call_response__get_packed_size,
      grpc__testing__streaming_input_call_response__pack)
  }

  private static func payload(size: Int, body: [UInt8]?, in scratch: inout CScratch)
    -> UnsafeMutablePointer<Grpc__Testing__Payload>
  {
    let payload = scratch.message(grpc__testing__payload__init)
    payload.pointee.has_body = 1
    if let body {
      payload.pointee.body = scratch.binary(body)
    } else {
      payload.pointee.body = scratch.zeros(count: size)
    }
    return payload
  }

  private static func payloadSize(_ payload: UnsafeMutablePointer<Grpc__Testing__Payload>?)
    -> Int
  {
    guard let payload, payload.pointee.has_body != 0 else { return 0 }
    return payload.pointee.body.len
  }

  private static func bool(_ value: UnsafeMutablePointer<Grpc__Testing__BoolValue>?) -> Bool? {
    value.map { $0.pointee.has_value != 0 && $0.pointee.value != 0 }
  }

  private static func echoStatus(_ status: UnsafeMutablePointer<Grpc__Testing__EchoStatus>?)
    -> EchoStatus?
  {
    status.map {
      EchoStatus(
        code: $0.pointee.has_code != 0 ? $0.pointee.code : 0, message: text($0.pointee.message))
    }
  }
}

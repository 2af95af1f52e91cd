import CProtobufC
import GaugeProtos
import ProtobufCSupport

/// protobuf-c ⇄ reflection requests and answers. v1alpha has exactly the
/// wire shape of v1, so the v1 structs serve both versions.
enum ReflectionWire {
  /// Decodes a ServerReflectionRequest, answers it, and encodes the
  /// ServerReflectionResponse (echoing the request in `original_request`);
  /// nil when the bytes are not a request, or one of its strings is not
  /// UTF-8 or holds a NUL (the echo would carry it into a response no client
  /// can parse, or the question would be cut short).
  static func respond(
    to bytes: [UInt8], answer: (ReflectionRequest) -> ReflectionAnswer
  ) -> [UInt8]? {
    // host = 1, file_by_filename = 3, file_containing_symbol = 4,
    // file_containing_extension = 5 { containing_type = 1 },
    // all_extension_numbers_of_type = 6, list_services = 7
    guard StringFieldText.isValid(bytes[...], strings: [1, 3, 4, 6, 7], nested: [5: [1]]) else {
      return nil
    }
    return withUnpacked(
      bytes, grpc__reflection__v1__server_reflection_request__unpack,
      grpc__reflection__v1__server_reflection_request__free_unpacked
    ) { request in
      encode(answer(decode(request.pointee)), host: request.pointee.host, original: request)
    }
  }

  private static func decode(_ request: Grpc__Reflection__V1__ServerReflectionRequest)
    -> ReflectionRequest
  {
    switch request.message_request_case {
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_BY_FILENAME:
      return .fileByFilename(text(request.file_by_filename))
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_SYMBOL:
      return .fileContainingSymbol(text(request.file_containing_symbol))
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_FILE_CONTAINING_EXTENSION:
      let extensionRequest = request.file_containing_extension?.pointee
      return .fileContainingExtension(
        type: text(extensionRequest?.containing_type),
        number: extensionRequest?.extension_number ?? 0)
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_ALL_EXTENSION_NUMBERS_OF_TYPE:
      return .allExtensionNumbersOfType(text(request.all_extension_numbers_of_type))
    case GRPC__REFLECTION__V1__SERVER_REFLECTION_REQUEST__MESSAGE_REQUEST_LIST_SERVICES:
      return .listServices
    default:
      return .none
    }
  }

  private static func encode(
    _ answer: ReflectionAnswer, host: UnsafeMutablePointer<CChar>?,
    original: UnsafeMutablePointer<Grpc__Reflection__V1__ServerReflectionRequest>
  ) -> [UInt8] {
    var scratch = CScratch()
    let response = scratch.message(grpc__reflection__v1__server_reflection_response__init)
    response.pointee.valid_host = host
    response.pointee.original_request = original
    switch answer {
    case .files(let files):
      let body = scratch.message(grpc__reflection__v1__file_descriptor_response__init)
      body.pointee.n_file_descriptor_proto = files.count
      var blobs: [ProtobufCBinaryData] = []
      for file in files { blobs.append(scratch.binary(file)) }
      body.pointee.file_descriptor_proto = scratch.array(blobs)
      response.pointee.message_response_case =
        GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_FILE_DESCRIPTOR_RESPONSE
      response.pointee.file_descriptor_response = body
    case .services(let names):
      var entries: [UnsafeMutablePointer<Grpc__Reflection__V1__ServiceResponse>?] = []
      for name in names {
        let entry = scratch.message(grpc__reflection__v1__service_response__init)
        entry.pointee.name = scratch.cString(name)
        entries.append(entry)
      }
      let body = scratch.message(grpc__reflection__v1__list_service_response__init)
      body.pointee.n_service = entries.count
      body.pointee.service = scratch.array(entries)
      response.pointee.message_response_case =
        GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_LIST_SERVICES_RESPONSE
      response.pointee.list_services_response = body
    case .extensionNumbers(let type, let numbers):
      let body = scratch.message(grpc__reflection__v1__extension_number_response__init)
      body.pointee.base_type_name = scratch.cString(type)
      body.pointee.n_extension_number = numbers.count
      body.pointee.extension_number = scratch.array(numbers)
      response.pointee.message_response_case =
        GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ALL_EXTENSION_NUMBERS_RESPONSE
      response.pointee.all_extension_numbers_response = body
    case .error(let code, let message):
      let body = scratch.message(grpc__reflection__v1__error_response__init)
      body.pointee.has_error_code = 1
      body.pointee.error_code = code.rawValue
      body.pointee.error_message = scratch.cString(message)
      response.pointee.message_response_case =
        GRPC__REFLECTION__V1__SERVER_REFLECTION_RESPONSE__MESSAGE_RESPONSE_ERROR_RESPONSE
      response.pointee.error_response = body
    }
    return packed(
      response, grpc__reflection__v1__server_reflection_response__get_packed_size,
      grpc__reflection__v1__server_reflection_response__pack)
  }
}

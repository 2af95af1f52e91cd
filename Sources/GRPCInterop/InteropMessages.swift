/// The grpc.testing request fields the server acts on, as Swift values.
/// BoolValue fields are nullable on purpose: absent means "do not check".

struct EchoStatus: Equatable {
  var code: Int32
  var message: String
}

struct SimpleRequest: Equatable {
  var responseType: Int32 = 0
  var responseSize: Int32 = 0
  var responseCompressed: Bool?
  var responseStatus: EchoStatus?
  var expectCompressed: Bool?
  var fillServerID = false
}

struct ResponseParameters: Equatable {
  var size: Int32 = 0
  var intervalMicroseconds: Int32 = 0
  var compressed: Bool?
}

struct StreamingOutputCallRequest: Equatable {
  var responseType: Int32 = 0
  var responseParameters: [ResponseParameters] = []
  var responseStatus: EchoStatus?
}

struct StreamingInputCallRequest: Equatable {
  var payloadSize = 0
  var expectCompressed: Bool?
}

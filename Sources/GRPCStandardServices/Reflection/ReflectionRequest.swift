import GRPCCore
import GRPCTransport

/// One question on a reflection stream.
enum ReflectionRequest: Equatable {
  case fileByFilename(String)
  case fileContainingSymbol(String)
  case fileContainingExtension(type: String, number: Int32)
  case allExtensionNumbersOfType(String)
  case listServices
  /// No question set.
  case none
}

/// Its answer.
enum ReflectionAnswer: Equatable {
  /// Serialized FileDescriptorProtos: the file asked for first.
  case files([[UInt8]])
  case services([String])
  case extensionNumbers(type: String, numbers: [Int32])
  case error(GRPCStatus.Code, String)
}

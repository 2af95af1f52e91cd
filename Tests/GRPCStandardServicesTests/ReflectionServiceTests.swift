import GRPCCore
import GRPCTransport
import Testing

@testable import GRPCStandardServices

@Suite struct ReflectionServiceTests {
  let services = ReflectionService.allVersions(listing: [
    "gauge.v1.WidgetService", "grpc.health.v1.Health",
  ])

  @Test func bothVersionsListEveryServiceAndThemselves() {
    #expect(
      services.map(\.serviceName) == [
        "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
      ])
    for service in services {
      #expect(
        service.answer(.listServices)
          == .services([
            "gauge.v1.WidgetService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
          ]))
    }
  }

  @Test func filesBySymbolAndByNameComeWithTheirImports() throws {
    let reflection = services[0]
    guard
      case .files(let bySymbol) = reflection.answer(.fileContainingSymbol("gauge.v1.WidgetService"))
    else {
      Issue.record("no files for gauge.v1.WidgetService")
      return
    }
    #expect(reflection.answer(.fileByFilename("gauge/v1/widget_service.proto")) == .files(bySymbol))
    let names = try bySymbol.map { try FileDescriptorSummary(parsing: $0[...]).name }
    #expect(names.first == "gauge/v1/widget_service.proto")
    #expect(names.contains("gauge/v1/widget.proto"))
  }

  @Test func unknownNamesAreNotFoundErrorsNotCallFailures() {
    let reflection = services[1]
    for request: ReflectionRequest in [
      .fileByFilename("grpc/testing/test.proto"), .fileContainingSymbol("grpc.testing.TestService"),
      .fileContainingExtension(type: "gauge.v1.Widget", number: 100),
      .allExtensionNumbersOfType("gauge.v1.Nope"),
    ] {
      guard case .error(let code, let message) = reflection.answer(request) else {
        Issue.record("\(request) was answered")
        continue
      }
      #expect(code == .notFound)
      #expect(!message.isEmpty)
    }
    #expect(
      reflection.answer(.allExtensionNumbersOfType("gauge.v1.Widget"))
        == .extensionNumbers(type: "gauge.v1.Widget", numbers: []))
  }

  @Test func wireRequestsAreAnsweredWithTheRequestEchoed() throws {
    // ServerReflectionRequest { host: "h", list_services: "*" }
    let request: [UInt8] = [0x0A, 0x01, 0x68, 0x3A, 0x01, 0x2A]
    let response = try #require(
      ReflectionWire.respond(to: request, answer: services[0].answer))
    var fields: [Int: ProtoWireReader.Value] = [:]
    var reader = ProtoWireReader(response[...])
    while let (number, value) = try reader.next() { fields[number] = value }
    #expect(fields[1]?.text == "h")
    #expect(fields[2]?.message.map(Array.init) == request)
    var names: [String] = []
    var list = ProtoWireReader(try #require(fields[6]?.message))
    while let (_, entry) = try list.next() {
      var service = ProtoWireReader(try #require(entry.message))
      if let (_, name) = try service.next() { names.append(name.text ?? "") }
    }
    #expect(names.contains("gauge.v1.WidgetService"))
    #expect(ReflectionWire.respond(to: [0xFF, 0xFF], answer: services[0].answer) == nil)
  }

  /// protobuf-c takes any bytes for a proto3 string; echoed in
  /// `original_request`, bytes that are not UTF-8 made a response stock
  /// clients refuse to parse. Each string field, the host included, is checked.
  @Test func requestsWithAStringThatIsNotUTF8AreNotAnswered() {
    let answer = services[0].answer
    // file_by_filename (3), file_containing_symbol (4), list_services (7), host (1): "a\xC0b"
    for field: UInt8 in [3, 4, 7, 1] {
      let request: [UInt8] = [field << 3 | 2, 0x03, 0x61, 0xC0, 0x62]
      #expect(ReflectionWire.respond(to: request, answer: answer) == nil, "field \(field)")
      let valid: [UInt8] = [field << 3 | 2, 0x03, 0x61, 0xC3, 0xA9]
      #expect(ReflectionWire.respond(to: valid, answer: answer) != nil, "field \(field)")
    }
    // file_containing_extension { containing_type: "\xC0" }
    #expect(
      ReflectionWire.respond(to: [0x2A, 0x03, 0x0A, 0x01, 0xC0], answer: answer) == nil)
    // all_extension_numbers_of_type: "\xFF"
    #expect(ReflectionWire.respond(to: [0x32, 0x01, 0xFF], answer: answer) == nil)
    // file_containing_symbol: "gauge.v1.Widget\0x", which protobuf-c would cut at the NUL
    let symbol = Array("gauge.v1.Widget".utf8) + [0, 0x78]
    #expect(
      ReflectionWire.respond(to: [0x22, UInt8(symbol.count)] + symbol, answer: answer) == nil)
  }
}

import GRPCCore
import GRPCTransport
import Testing

@testable import GRPCStandardServices

@Suite struct DescriptorIndexTests {
  let index = try! EmbeddedDescriptors.index.get()

  @Test func everyProtoFileIsInTheEmbeddedSet() {
    #expect(
      Set(index.files.keys) == [
        "gauge/v1/widget.proto", "gauge/v1/widget_service.proto", "gauge/v1/token_service.proto",
        "google/protobuf/any.proto", "google/protobuf/duration.proto",
        "google/rpc/status.proto", "google/rpc/error_details.proto",
        "grpc/health/v1/health.proto", "grpc/reflection/v1/reflection.proto",
        "grpc/reflection/v1alpha/reflection.proto", "grpc/testing/empty.proto",
        "grpc/testing/messages.proto", "grpc/testing/test.proto",
      ])
  }

  @Test func symbolsOfEveryKindFindTheirFile() {
    let cases: [(String, String)] = [
      ("gauge.v1.WidgetService", "gauge/v1/widget_service.proto"),
      ("gauge.v1.WidgetService.PutWidget", "gauge/v1/widget_service.proto"),
      (".gauge.v1.Widget", "gauge/v1/widget.proto"),
      ("gauge.v1.PutWidgetRequest.widget", "gauge/v1/widget_service.proto"),
      ("grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc/health/v1/health.proto"),
      // Enum values are siblings of their enum.
      ("grpc.health.v1.HealthCheckResponse.SERVICE_UNKNOWN", "grpc/health/v1/health.proto"),
      ("grpc.testing.PayloadType", "grpc/testing/messages.proto"),
      ("grpc.testing.COMPRESSABLE", "grpc/testing/messages.proto"),
      (
        "grpc.reflection.v1.ServerReflectionRequest.message_request",
        "grpc/reflection/v1/reflection.proto"
      ),
    ]
    for (symbol, file) in cases {
      #expect(index.fileName(containingSymbol: symbol) == file, "\(symbol)")
    }
    #expect(index.fileName(containingSymbol: "gauge.v1.Nope") == nil)
    #expect(index.fileName(containingSymbol: "gauge.v1") == nil)
  }

  @Test func aFileComesFirstThenItsImportsTransitivelyOnce() {
    let names = index.fileWithDependencies("grpc/testing/test.proto")?.map(\.name)
    #expect(
      names == [
        "grpc/testing/test.proto", "grpc/testing/empty.proto", "grpc/testing/messages.proto",
      ])
    let service = index.fileWithDependencies("gauge/v1/widget_service.proto")!
    #expect(service.first?.name == "gauge/v1/widget_service.proto")
    #expect(service.map(\.name).contains("gauge/v1/widget.proto"))
    #expect(Set(service.map(\.name)).count == service.count)
    #expect(index.fileWithDependencies("nope.proto") == nil)
  }

  @Test func servingKeepsOnlyWhatTheListedServicesNeed() {
    let served = index.serving(["gauge.v1.WidgetService", "grpc.health.v1.Health"])
    #expect(served.files["grpc/testing/test.proto"] == nil)
    #expect(served.files["grpc/reflection/v1/reflection.proto"] == nil)
    #expect(served.files["gauge/v1/widget.proto"] != nil)
    #expect(served.files["grpc/health/v1/health.proto"] != nil)
    #expect(served.fileName(containingSymbol: "grpc.testing.TestService") == nil)
  }

  @Test func filesKeepTheirCompiledBytes() throws {
    let file = try #require(index.files["grpc/health/v1/health.proto"])
    let reparsed = try FileDescriptorSummary(parsing: file.bytes[...])
    #expect(reparsed == file)
    #expect(file.package == "grpc.health.v1")
    #expect(file.services == ["grpc.health.v1.Health"])
  }

  @Test func malformedBytesAreRefusedNotTrusted() {
    // A length running past the end, a varint that never ends, a group.
    for bytes: [UInt8] in [[0x0A, 0x05, 0x61], [0x08, 0xFF, 0xFF], [0x0B], [0x00, 0x01]] {
      #expect(throws: ProtoWireReader.Malformed.self) {
        _ = try DescriptorIndex(fileDescriptorSet: bytes)
      }
    }
    #expect(throws: Never.self) { _ = try DescriptorIndex(fileDescriptorSet: []) }
  }

  @Test func methodTraitsComeFromTheSchema() {
    let traits = EmbeddedMethodTraits.byPath
    #expect(
      traits["/gauge.v1.WidgetService/GetWidget"] == RPCMethodTraits(sideEffectFree: true))
    #expect(
      traits["/gauge.v1.WidgetService/ListWidgets"] == RPCMethodTraits(sideEffectFree: true))
    #expect(traits["/gauge.v1.WidgetService/PutWidget"] == RPCMethodTraits())
    #expect(
      traits["/gauge.v1.WidgetService/PublishValues"] == RPCMethodTraits(clientStreams: true))
    #expect(traits["/gauge.v1.WidgetService/Subscribe"] == RPCMethodTraits(serverStreams: true))
    #expect(
      traits["/grpc.health.v1.Health/Watch"] == RPCMethodTraits(serverStreams: true))
  }
}

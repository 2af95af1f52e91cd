#if FUZZING
  import GaugeFuzz
  import GaugeIO
  import Glibc

  // In a fuzzer build libFuzzer's `main` runs the show and calls these two
  // by their C names; GAUGE_FUZZ_TARGET names the harness.

  // nonisolated(unsafe): written once in LLVMFuzzerInitialize, before
  // libFuzzer's single fuzzing thread reads it for every input.
  nonisolated(unsafe) private var selected = FuzzTarget.calls

  @_cdecl("LLVMFuzzerInitialize")
  public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
  ) -> Int32 {
    let name = getenv("GAUGE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      LineConsole.error("gauge-fuzz: set GAUGE_FUZZ_TARGET to one of \(names)")
      exit(2)
    }
    selected = target
    return 0
  }

  /// A finding aborts, so that libFuzzer keeps the input as a crash, as it
  /// does for a real one.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do throws(FuzzFinding) {
      try selected.run(bytes)
    } catch {
      LineConsole.error("gauge-fuzz: finding: \(error)")
      abort()
    }
    return 0
  }
#endif

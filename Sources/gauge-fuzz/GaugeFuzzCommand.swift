import GaugeFuzz
import GaugeIO
import Glibc

private let usage = """
  usage: gauge-fuzz replay TARGET PATH...   run each input (a file, or a folder of them)
         gauge-fuzz seed FOLDER             write the seed inputs, FOLDER/TARGET/NAME
  A fuzzer build (scripts/fuzz) is libFuzzer's program instead:
         GAUGE_FUZZ_TARGET=TARGET gauge-fuzz [libFuzzer flags] [corpus folders]
  targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
  """

private func fail(_ message: String) -> Never {
  LineConsole.error("gauge-fuzz: \(message)")
  exit(2)
}

/// `mkdir -p`: every missing folder on the way to `path`.
private func makeFolders(_ path: String) {
  var prefix = path.hasPrefix("/") ? "" : "."
  for component in path.split(separator: "/") {
    prefix += "/\(component)"
    mkdir(prefix, 0o755)
  }
}

private func target(named name: String) -> FuzzTarget {
  guard let target = FuzzTarget(rawValue: name) else { fail("no target \(name)\n\(usage)") }
  return target
}

/// `gauge-fuzz`: the fuzzing harnesses as a command, in every build but
/// the fuzzer's, where libFuzzer brings its own `main` (see FuzzDriver).
#if !FUZZING
  @main
  struct GaugeFuzzCommand {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      switch arguments.first {
      case "replay" where arguments.count >= 3:
        let chosen = target(named: arguments[1])
        var findings = 0
        var count = 0
        for path in arguments.dropFirst(2) {
          for file in CorpusFiles.inputs(at: path) {
            guard let bytes = CorpusFiles.read(file) else { fail("cannot read \(file)") }
            count += 1
            do throws(FuzzFinding) {
              try chosen.run(bytes)
            } catch {
              findings += 1
              LineConsole.out("\(file): \(error)")
            }
          }
        }
        LineConsole.out(
          "gauge-fuzz: \(count) input(s) replayed on \(chosen.rawValue), \(findings) finding(s)")
        exit(findings == 0 ? 0 : 1)

      case "seed" where arguments.count == 2:
        for chosen in FuzzTarget.allCases {
          let folder = "\(arguments[1])/\(chosen.rawValue)"
          makeFolders(folder)
          do throws(FuzzFinding) {
            for (name, bytes) in try SeedCorpus.inputs(for: chosen) {
              guard CorpusFiles.write(bytes, to: "\(folder)/seed-\(name)") else {
                fail("cannot write \(folder)/seed-\(name)")
              }
            }
          } catch {
            fail("a seed input is itself a finding: \(error)")
          }
        }

      case "fuzz" where arguments.count >= 2:
        #if FUZZING
          FuzzDriver.run(
            target(named: arguments[1]), libFuzzerArguments: Array(arguments.dropFirst(2)))
        #else
          fail("this build has no fuzzer: build with scripts/fuzz")
        #endif

      default:
        fail(usage)
      }
    }
  }
#endif

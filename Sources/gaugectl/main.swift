import GaugeCtlKit
import Glibc

// A reader that goes away (`gaugectl watch --events | head`) is an EPIPE to
// handle, not a signal that kills the process mid-line.
signal(SIGPIPE, SIG_IGN)
exit(
  GaugeCtl.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current())
)

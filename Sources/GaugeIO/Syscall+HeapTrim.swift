import CLinuxIO

extension Syscall {
  /// Gives the heap's wholly free pages back to the kernel, in every malloc
  /// arena. A burst (thousands of streams opening at once) leaves its
  /// transient allocations freed but resident; glibc returns only the top
  /// of an arena by itself. It walks the free lists under each arena's
  /// lock, so call it rarely, when the process has gone quiet.
  public static func releaseFreeHeapPages() {
    _ = malloc_trim(0)
  }
}

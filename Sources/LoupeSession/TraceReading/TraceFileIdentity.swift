#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import LoupeCore

extension TraceFileIO {
  /// What tells one version of a regular file from another: device, inode, size and
  /// modification time (to the nanosecond). `nil` for anything but a regular file.
  package static func identity(_ fd: Int32) -> TraceReader.FileIdentity? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return TraceReader.FileIdentity(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
      modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
  }

}

extension TraceWriter {
  /// Appends the events of a `loupe/events` notification exactly as they came over the wire
  /// (checked when the batch was made), with a single write.
  public func append(_ batch: NotificationEventLines.Batch) throws(TraceError) {
    try append(checkedLines: batch.text)
  }
}

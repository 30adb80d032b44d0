import LoupeCore

extension TraceFileIO {
  /// What tells one version of a regular file from another: device, inode, size and
  /// modification time (to the nanosecond). `nil` for anything but a regular file.
  package static func identity(_ fd: Int32) -> TraceReader.FileIdentity? {
    guard let status = regularFileStatus(fd) else { return nil }
    return TraceReader.FileIdentity(
      device: status.device, inode: status.inode, size: status.size,
      modifiedSeconds: status.modifiedSeconds, modifiedNanoseconds: status.modifiedNanoseconds)
  }

}

extension TraceWriter {
  /// Appends the events of a `loupe/events` notification exactly as they came over the wire
  /// (checked when the batch was made), with a single write; returns the offset in the file of
  /// its first line (the others follow: ``NotificationEventLines/Batch/lineLengths``).
  @discardableResult
  public func append(_ batch: NotificationEventLines.Batch) throws(TraceError) -> Int {
    try append(checkedLines: batch.text)
  }
}

/// Perfetto's trace packets, encoded with ``ProtobufWriter`` (field numbers from perfetto's
/// `protos/perfetto/trace/trace_packet.proto`, `track_event/track_descriptor.proto` and
/// `track_event/track_event.proto`).
///
/// A `.pftrace` file is a `Trace` message: its packets one after another, each as field 1.
enum PerfettoPackets {
  /// `TrackEvent.Type`.
  enum EventType: UInt64 {
    case sliceBegin = 1, sliceEnd = 2, instant = 3
  }

  /// A `DebugAnnotation` value.
  enum Annotation {
    case string(String)
    case int(Int)
    case bool(Bool)
  }

  /// Every packet comes from one writer: sequence 1.
  static let sequenceID: UInt64 = 1

  /// A `TrackEvent` to write.
  struct TrackEvent {
    var time: UInt64
    var type: EventType
    var track: UInt64
    var name: String? = nil
    var category: String? = nil
    var flows: [UInt64] = []
    var terminatingFlows: [UInt64] = []
    var annotations: [(name: String, value: Annotation)] = []
  }

  /// A `TrackDescriptor` to write.
  struct Track {
    var uuid: UInt64
    var parent: UInt64? = nil
    var name: String
    /// For the process track: the recorded program's pid.
    var pid: Int? = nil
    /// Children shown in the order they began (`ChildTracksOrdering.CHRONOLOGICAL`).
    var chronologicalChildren = false
  }

  /// The first packet: tells the reader the sequence starts clean.
  static func writeSequenceStart(to w: inout ProtobufWriter) {
    w.message(1) { packet in
      packet.uint(10, sequenceID)
      packet.uint(13, 1)  // sequence_flags = SEQ_INCREMENTAL_STATE_CLEARED
    }
  }

  static func write(_ track: Track, to w: inout ProtobufWriter) {
    w.message(1) { packet in
      packet.uint(10, sequenceID)
      packet.message(60) { descriptor in
        descriptor.uint(1, track.uuid)
        if let parent = track.parent { descriptor.uint(5, parent) }
        if let pid = track.pid {
          descriptor.message(3) { process in
            process.int(1, pid)
            process.string(6, track.name)
          }
        } else {
          descriptor.string(2, track.name)
        }
        if track.chronologicalChildren { descriptor.uint(11, 2) }
      }
    }
  }

  static func write(_ event: TrackEvent, to w: inout ProtobufWriter) {
    w.message(1) { packet in
      packet.uint(8, event.time)
      packet.uint(10, sequenceID)
      packet.message(11) { trackEvent in
        trackEvent.uint(9, event.type.rawValue)
        trackEvent.uint(11, event.track)
        if let name = event.name { trackEvent.string(23, name) }
        if let category = event.category { trackEvent.string(22, category) }
        for flow in event.flows { trackEvent.fixed64(47, flow) }
        for flow in event.terminatingFlows { trackEvent.fixed64(48, flow) }
        for annotation in event.annotations {
          trackEvent.message(4) { debug in
            debug.string(10, annotation.name)
            switch annotation.value {
            case .string(let text): debug.string(6, text)
            case .int(let number): debug.int(4, number)
            case .bool(let flag): debug.bool(2, flag)
            }
          }
        }
      }
    }
  }
}

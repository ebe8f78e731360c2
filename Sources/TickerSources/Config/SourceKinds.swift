/// Every kind of source the service knows.
public enum SourceKinds {
    /// The kinds a `[[source]]` table's `type` may name.
    public static let all: [SourceKind] = [
        CommandSource.kind,
        NowPlayingSource.kind,
        NotificationServer.kind,
        CalendarSource.kind,
        FeedSource.kind,
        MQTTSource.kind,
    ]
}

/// What the MQTT client reports from libmosquitto's network thread (handed to the source's loop).
enum MQTTEvent: Sendable {
    /// The broker accepted the connection; the subscriptions are on their way.
    case connected
    /// The broker refused the connection (bad credentials, not authorised, …).
    case refused(String)
    /// The connection is gone (`nil`: because the client asked).
    case disconnected(String?)
    /// The broker acknowledged the subscriptions: its retained messages follow.
    case subscribed
    /// A message on a subscribed topic.
    case message(topic: String, payload: [UInt8], retained: Bool)
    /// The broker refused something this client published (MQTT 5 reason code).
    case publishRefused(String)
}

/// The MPRIS D-Bus names the now-playing source uses (MPRIS 2.2).
enum MPRISNames {
    /// Every player's well-known name starts with this.
    static let prefix = "org.mpris.MediaPlayer2."
    /// The object path of every player.
    static let path = "/org/mpris/MediaPlayer2"
    /// The player interface (`PlaybackStatus`, `Metadata`).
    static let player = "org.mpris.MediaPlayer2.Player"
    /// The standard properties interface.
    static let properties = "org.freedesktop.DBus.Properties"
}

import TickerModel

/// What the now-playing source knows of one MPRIS player.
struct PlayerState: Hashable, Sendable {
    /// `Playing`, `Paused` or `Stopped` (MPRIS `PlaybackStatus`).
    enum Status: String, Hashable, Sendable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    /// Its well-known name (`org.mpris.MediaPlayer2.mpv`).
    var busName: String
    /// Its playback status.
    var status: Status = .stopped
    /// Template fields from its metadata (`title`, `artist`, `album`, `albumartist`, `url`, `player`).
    var fields: [String: String] = [:]
    /// Its track's http(s) URL, if any (the message's link).
    var link: String?
    /// A counter value of its last activity (appearing, a status or track change): the most
    /// recent is the one playerctld would choose.
    var activity: UInt64 = 0
    /// Whether its properties have been read once.
    var known = false

    /// The fields a now-playing template may name.
    static let fieldNames: Set<String> = ["title", "artist", "album", "albumartist", "url", "player", "status"]

    /// Takes `Metadata` (`a{sv}`) values: xesam title, artists, album, album artists and URL.
    mutating func take(metadata: [String: DBusValueText]) {
        var fields: [String: String] = [:]
        fields["title"] = metadata["xesam:title"]?.joined
        fields["artist"] = metadata["xesam:artist"]?.joined
        fields["album"] = metadata["xesam:album"]?.joined
        fields["albumartist"] = metadata["xesam:albumArtist"]?.joined
        let url = metadata["xesam:url"]?.joined
        fields["url"] = url
        if fields["title"] == nil || fields["title"]?.isEmpty == true, let url {
            // Players without tags give the file: its name is what a person recognises.
            fields["title"] = String(url.split(separator: "/").last ?? Substring(url)).percentDecoded
        }
        fields["player"] = String(busName.dropFirst(MPRISNames.prefix.count))
        fields["status"] = status.rawValue
        self.fields = fields
        if let url, url.hasPrefix("https://") || url.hasPrefix("http://"), LinkURI.problem(url) == nil {
            link = url
        } else {
            link = nil
        }
    }
}

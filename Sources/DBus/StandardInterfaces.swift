/// The standard interfaces the library implements on every exported object (and `Introspectable`
/// on every node of the tree, `ObjectManager` on manager paths).
public enum StandardInterfaces {
    /// `org.freedesktop.DBus.Peer` (answered on every path by the dispatcher).
    public static let peer = "org.freedesktop.DBus.Peer"
    /// `org.freedesktop.DBus.Introspectable`.
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    /// `org.freedesktop.DBus.Properties`.
    public static let properties = "org.freedesktop.DBus.Properties"
    /// `org.freedesktop.DBus.ObjectManager`.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// All four names.
    public static let names: Set<String> = [peer, introspectable, properties, objectManager]

    static let peerXML = """
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg type="s" name="machine_uuid" direction="out"/>
        </method>
      </interface>

    """

    static let introspectableXML = """
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>

    """

    static let propertiesXML = """
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="properties" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg type="s" name="interface_name"/>
          <arg type="a{sv}" name="changed_properties"/>
          <arg type="as" name="invalidated_properties"/>
        </signal>
      </interface>

    """

    static let objectManagerXML = """
      <interface name="org.freedesktop.DBus.ObjectManager">
        <method name="GetManagedObjects">
          <arg type="a{oa{sa{sv}}}" name="object_paths_interfaces_and_properties" direction="out"/>
        </method>
        <signal name="InterfacesAdded">
          <arg type="o" name="object_path"/>
          <arg type="a{sa{sv}}" name="interfaces_and_properties"/>
        </signal>
        <signal name="InterfacesRemoved">
          <arg type="o" name="object_path"/>
          <arg type="as" name="interfaces"/>
        </signal>
      </interface>

    """
}

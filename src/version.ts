/** VERSION of docintel; the interface it implements is INTERFACE_VERSION. */
export const VERSION = "0.1.0";
export const INTERFACE_VERSION = "1.5.0";

// libxml2 (Debian libxml2-dev, pkg-config libxml-2.0) for the Feeds target's SAX reader.
#ifndef TICKERD_CLIBXML2_SHIM_H
#define TICKERD_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and <libxml/encoding.h> then includes ICU's headers, which
// clash with the ICU copy Foundation's modules carry. Nothing here uses ICU: without this the
// only change is two pointers at the end of xmlCharEncodingHandler, a struct used by pointer.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/entities.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// `XML_SAX2_MAGIC` is a macro over an unsigned literal that Swift imports as a signed type; this
// constant has the type of `xmlSAXHandler.initialized`.
static const unsigned int CLIBXML2_SAX2_MAGIC = XML_SAX2_MAGIC;

#endif

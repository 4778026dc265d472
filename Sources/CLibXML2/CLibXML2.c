#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static tincan_libxml2 library;
static const tincan_libxml2 *loaded;
static char failure[512] = "libxml2 was not opened";
static pthread_once_t once = PTHREAD_ONCE_INIT;

/// Refuses every external entity and DTD.
static xmlParserInputPtr refuse_external_entity(const char *url, const char *identifier, xmlParserCtxtPtr context) {
    (void)url;
    (void)identifier;
    (void)context;
    return NULL;
}

static void ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static void load(void) {
    // libxml2 2.14 changed its soname from .so.2 to .so.16; every function used here is in both.
    void *handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "libxml2 could not be loaded (%s); install the libxml2 package", reason ? reason : "not found");
        return;
    }
#define RESOLVE(name)                                                                                           \
    if ((library.name = (__typeof__(library.name))dlsym(handle, #name)) == NULL) {                              \
        snprintf(failure, sizeof failure, "libxml2 has no %s (libxml2 2.9 or later is needed)", #name);        \
        return;                                                                                                 \
    }
    RESOLVE(xmlReaderForMemory)
    RESOLVE(xmlTextReaderRead)
    RESOLVE(xmlTextReaderNodeType)
    RESOLVE(xmlTextReaderConstName)
    RESOLVE(xmlTextReaderConstValue)
    RESOLVE(xmlTextReaderIsEmptyElement)
    RESOLVE(xmlTextReaderMoveToNextAttribute)
    RESOLVE(xmlTextReaderGetParserLineNumber)
    RESOLVE(xmlTextReaderGetParserColumnNumber)
    RESOLVE(xmlFreeTextReader)
    RESOLVE(xmlReadMemory)
    RESOLVE(htmlReadMemory)
    RESOLVE(xmlFreeDoc)
    RESOLVE(xmlDocGetRootElement)
    RESOLVE(xmlBufferCreate)
    RESOLVE(xmlBufferContent)
    RESOLVE(xmlBufferFree)
    RESOLVE(xmlNodeBufGetContent)
    RESOLVE(xmlXPathCompile)
    RESOLVE(xmlXPathFreeCompExpr)
    RESOLVE(xmlXPathNewContext)
    RESOLVE(xmlXPathFreeContext)
    RESOLVE(xmlXPathRegisterNs)
    RESOLVE(xmlXPathCompiledEval)
    RESOLVE(xmlXPathFreeObject)
    RESOLVE(xmlInitParser)
    RESOLVE(xmlSetExternalEntityLoader)
    RESOLVE(xmlSetGenericErrorFunc)
    RESOLVE(xmlSetStructuredErrorFunc)
#undef RESOLVE
    library.xmlInitParser();
    library.xmlSetExternalEntityLoader(refuse_external_entity);
    loaded = &library;
}

const tincan_libxml2 *tincan_libxml2_open(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *tincan_libxml2_failure(void) {
    pthread_once(&once, load);
    return failure;
}

// libxml2 2.12 made the structured handler's error const.
#if LIBXML_VERSION >= 21200
static void record(void *context, const xmlError *reported) {
#else
static void record(void *context, xmlErrorPtr reported) {
#endif
    tincan_libxml2_error *error = context;
    if (error == NULL || reported == NULL) return;
    int isError = reported->level >= XML_ERR_ERROR;
    if (error->reported && (!isError || error->level >= XML_ERR_ERROR)) return;
    error->reported = 1;
    error->domain = reported->domain;
    error->code = reported->code;
    error->level = reported->level;
    error->line = reported->line;
    error->column = reported->int2;
    error->offset = reported->domain == XML_FROM_XPATH ? reported->int1 : 0;
    snprintf(error->message, sizeof error->message, "%s", reported->message ? reported->message : "");
    size_t length = strlen(error->message);
    while (length > 0 && (error->message[length - 1] == '\n' || error->message[length - 1] == ' ')) error->message[--length] = '\0';
}

void tincan_libxml2_record_errors(const tincan_libxml2 *library, tincan_libxml2_error *error) {
    memset(error, 0, sizeof *error);
    library->xmlSetGenericErrorFunc(NULL, ignore_generic_error);
    library->xmlSetStructuredErrorFunc(error, record);
}


void tincan_libxml2_stop_recording(const tincan_libxml2 *library) {
    library->xmlSetGenericErrorFunc(NULL, ignore_generic_error);
    library->xmlSetStructuredErrorFunc(NULL, NULL);
}

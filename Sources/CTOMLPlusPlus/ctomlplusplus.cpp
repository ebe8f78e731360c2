// The C view of toml++ that include/ctomlplusplus.h declares. toml++ is compiled into this file
// (header-only, with exceptions: a parse error is toml::parse_error); no exception leaves it.
#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

#include "ctomlplusplus.h"

namespace {

const toml::node *node(const ctoml_node *handle) noexcept {
    return reinterpret_cast<const toml::node *>(handle);
}

const ctoml_node *handle(const toml::node *node) noexcept {
    return reinterpret_cast<const ctoml_node *>(node);
}

/// A malloc'ed, NUL-terminated copy of `text` (NULL when memory ran out).
char *copy(std::string_view text) noexcept {
    char *bytes = static_cast<char *>(std::malloc(text.size() + 1));
    if (bytes == nullptr) return nullptr;
    std::memcpy(bytes, text.data(), text.size());
    bytes[text.size()] = '\0';
    return bytes;
}

void fail(ctoml_failure *failure, std::string_view description, uint32_t line) noexcept {
    failure->description = copy(description);
    failure->line = line;
}

}  // namespace

extern "C" ctoml_document *ctoml_parse(const char *source, size_t length, ctoml_failure *failure) {
    try {
        toml::table *root = new toml::table(toml::parse(std::string_view(source, length)));
        return reinterpret_cast<ctoml_document *>(root);
    } catch (const toml::parse_error &error) {
        fail(failure, error.description(), static_cast<uint32_t>(error.source().begin.line));
    } catch (const std::bad_alloc &) {
        fail(failure, "out of memory while reading the file", 0);
    } catch (...) {
        fail(failure, "the TOML parser failed", 0);
    }
    return nullptr;
}

extern "C" void ctoml_free(ctoml_document *document) {
    delete reinterpret_cast<toml::table *>(document);
}

extern "C" const ctoml_node *ctoml_root(const ctoml_document *document) {
    return handle(reinterpret_cast<const toml::table *>(document));
}

extern "C" ctoml_type ctoml_type_of(const ctoml_node *handle) {
    switch (node(handle)->type()) {
        case toml::node_type::table: return CTOML_TABLE;
        case toml::node_type::array: return CTOML_ARRAY;
        case toml::node_type::string: return CTOML_STRING;
        case toml::node_type::integer: return CTOML_INTEGER;
        case toml::node_type::floating_point: return CTOML_FLOAT;
        case toml::node_type::boolean: return CTOML_BOOLEAN;
        case toml::node_type::date: return CTOML_DATE;
        case toml::node_type::time: return CTOML_TIME;
        case toml::node_type::date_time: return CTOML_DATE_TIME;
        case toml::node_type::none: break;
    }
    return CTOML_NONE;
}

extern "C" size_t ctoml_table_size(const ctoml_node *handle) {
    const toml::table *table = node(handle)->as_table();
    return table == nullptr ? 0 : table->size();
}

extern "C" void ctoml_table_keys(const ctoml_node *handle, ctoml_string *keys, size_t capacity) {
    const toml::table *table = node(handle)->as_table();
    if (table == nullptr) return;
    size_t index = 0;
    for (auto &&[key, value] : *table) {
        if (index == capacity) break;
        std::string_view name = key.str();
        keys[index++] = ctoml_string{name.data(), name.size()};
    }
}

extern "C" const ctoml_node *ctoml_table_get(const ctoml_node *handle, const char *key, size_t length) {
    const toml::table *table = node(handle)->as_table();
    return table == nullptr ? nullptr : ::handle(table->get(std::string_view(key, length)));
}

extern "C" size_t ctoml_array_size(const ctoml_node *handle) {
    const toml::array *array = node(handle)->as_array();
    return array == nullptr ? 0 : array->size();
}

extern "C" const ctoml_node *ctoml_array_get(const ctoml_node *handle, size_t index) {
    const toml::array *array = node(handle)->as_array();
    return array == nullptr ? nullptr : ::handle(array->get(index));
}

extern "C" bool ctoml_string_value(const ctoml_node *handle, ctoml_string *value) {
    const toml::value<std::string> *string = node(handle)->as_string();
    if (string == nullptr) return false;
    const std::string &text = string->get();
    *value = ctoml_string{text.data(), text.size()};
    return true;
}

extern "C" bool ctoml_integer_value(const ctoml_node *handle, int64_t *value) {
    const toml::value<int64_t> *integer = node(handle)->as_integer();
    if (integer == nullptr) return false;
    *value = integer->get();
    return true;
}

extern "C" bool ctoml_float_value(const ctoml_node *handle, double *value) {
    const toml::value<double> *number = node(handle)->as_floating_point();
    if (number == nullptr) return false;
    *value = number->get();
    return true;
}

extern "C" bool ctoml_boolean_value(const ctoml_node *handle, bool *value) {
    const toml::value<bool> *boolean = node(handle)->as_boolean();
    if (boolean == nullptr) return false;
    *value = boolean->get();
    return true;
}

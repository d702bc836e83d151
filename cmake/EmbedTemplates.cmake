# Writes the text templates given in TEMPLATES (a ;-list of NAME=PATH pairs)
# (separated by "|") into OUTPUT as C++ string constants `k<NAME>`, so that pbtool carries the
# templates of templates/ inside its binary.
# Usage: cmake -DOUTPUT=<file> -DTEMPLATES=<NAME=PATH|...> -P EmbedTemplates.cmake
set(content "// Generated from templates/ by cmake/EmbedTemplates.cmake; do not edit.\n")
string(REPLACE "|" ";" TEMPLATES "${TEMPLATES}")
foreach(pair IN LISTS TEMPLATES)
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 name)
  list(GET parts 1 path)
  file(READ "${path}" text)
  string(APPEND content "static const char k${name}[] = R\"PBTEMPLATE(${text})PBTEMPLATE\";\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")

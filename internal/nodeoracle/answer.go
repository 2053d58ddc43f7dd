package nodeoracle

// AnswerJS defines, in JavaScript, renderAnswer(result): what a client
// hands its model of a tools/call result, as toollist.ReadAnswer reads
// it: the text of its content blocks (a resource's text, a resource
// link as JSON, the structured content when there are no blocks), and
// returns {chars, text_bytes, images, is_error}: the text's string
// length and UTF-8 bytes, the images counted apart. Tests put it in
// front of the Node scripts that hold answers to it.
const AnswerJS = `
function renderAnswer(v) {
  let text = '', images = 0;
  const blocks = Array.isArray(v.content) ? v.content : [];
  for (const b of blocks) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'resource' && b.resource && typeof b.resource.text === 'string') text += b.resource.text;
    else if (b.type === 'resource_link') text += JSON.stringify(b);
    else if (b.type === 'image') images++;
  }
  if (blocks.length === 0 && v.structuredContent !== undefined) text += JSON.stringify(v.structuredContent);
  return {chars: text.length, text_bytes: Buffer.byteLength(text, 'utf8'), images, is_error: v.isError === true};
}
`

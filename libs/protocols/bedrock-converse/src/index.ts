export { bedrockConverseUpstream } from './bedrock-converse.upstream';
export { BedrockConverseStreamDecoder } from './bedrock-converse-stream-decoder';
export { convertBedrockConverseResponse } from './convert-bedrock-converse-response';
export { convertToBedrockConverseRequest } from './convert-to-bedrock-converse-request';
export { mapBedrockConverseUsage } from './map-bedrock-converse-usage';

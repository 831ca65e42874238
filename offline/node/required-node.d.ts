/** Types of required-node.js (plain CommonJS, so the machine's older Node runs it before anything is installed). */
export function requiredNodeVersion(root?: string): string;
export function satisfiesNode(running: string, required: string): boolean;
export function nodeBinary(version: string, root?: string): string;

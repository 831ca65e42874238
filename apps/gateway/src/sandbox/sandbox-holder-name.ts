const FIRST_NAMES = ['Ana', 'Bruno', 'Camila', 'Diego', 'Elisa', 'Felipe', 'Gabriela', 'Heitor', 'Isabela', 'João'] as const;
const SURNAMES = ['Almeida', 'Barbosa', 'Costa', 'Dias', 'Ferreira', 'Gomes', 'Lima', 'Martins', 'Pereira', 'Souza'] as const;

/**
 * The holder's name the sandbox gives a user registered without one (docs/api.md, "Sandbox"): a made-up
 * person's name in DICT's alphabet, the same for a CPF every time (its first two digits pick it), so a
 * sandbox key asked for with the CPF alone, as the contract's request is, reaches `registered`.
 */
export function sandboxHolderName(document: string): string {
  return `${FIRST_NAMES[Number(document[0])]} ${SURNAMES[Number(document[1])]} Sandbox`;
}

// Demo numbers must never pass for spend: what every page, sheet and email says when an account is simulated.
export const SIMULATED_LABEL = 'SIMULATED DATA';

/** The sentence of the workbook's banner and the email's. */
export function simulatedBanner(accounts: readonly string[]): string {
  return `${SIMULATED_LABEL} – account${accounts.length > 1 ? 's' : ''} ${accounts.join(', ')} ${accounts.length > 1 ? 'are' : 'is'} simulated by gpuledger's demo, not real spend`;
}

import { diag } from '../../diagnostics.js';
import { CONTRACT_VERSION, SUPPORTED_CONTRACT_VERSIONS } from '../model.js';
import type { Rule } from './rule.js';

export const contractVersion: Rule = {
  name: 'contract-version',
  check({ data }) {
    const v = data.skill_contract_version;
    if (typeof v !== 'string' || v === '' || SUPPORTED_CONTRACT_VERSIONS.includes(v)) return [];
    return [
      diag('CONTRACT_VERSION_UNSUPPORTED', `skill_contract_version ${JSON.stringify(v)} is not supported`, {
        pointer: '/skill_contract_version',
        hint: `use ${JSON.stringify(CONTRACT_VERSION)} (1.0.5 is accepted as an alias)`,
      }),
    ];
  },
};

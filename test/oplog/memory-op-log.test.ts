import { MappingStore } from '../../src/store/mapping.js';
import { MemoryStore } from '../../src/store/memory.js';
import { describeOpLogContract } from './contract.js';

describeOpLogContract('MemoryStore', async () => new MemoryStore());
describeOpLogContract('MappingStore', async () => new MappingStore(new Map()));

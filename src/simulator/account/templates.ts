// Pod and Serverless templates of the synthetic account (GET /v2/templates). Pods and endpoints copy a template's
// image, so an image is how a pod without a template link can still be attributed.
import type { Rng } from '../prng.ts';
import type { SimTemplate } from './types.ts';

interface TemplateSeed {
  name: string;
  image: string;
  serverless: boolean;
  category: SimTemplate['category'];
  args?: string;
  ports?: string[];
  volume?: number;
}

const BUILT_IN: readonly TemplateSeed[] = [
  { name: 'PyTorch 2.4', image: 'runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04', serverless: false, category: 'NVIDIA', ports: ['8888/http', '22/tcp'], volume: 50 },
  { name: 'ComfyUI', image: 'ghcr.io/ai-dock/comfyui:v2-cuda-12.1.1-base-22.04', serverless: false, category: 'NVIDIA', ports: ['8188/http', '22/tcp'], volume: 100 },
  { name: 'vLLM OpenAI server', image: 'vllm/vllm-openai:v0.6.3', serverless: false, category: 'NVIDIA', args: '--model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192', ports: ['8000/http'], volume: 80 },
  { name: 'Axolotl fine-tune', image: 'winglian/axolotl-cloud:main-20241001', serverless: false, category: 'NVIDIA', ports: ['8888/http', '22/tcp'], volume: 200 },
  { name: 'Jupyter CPU', image: 'jupyter/scipy-notebook:2024-10-07', serverless: false, category: 'CPU', ports: ['8888/http'] },
  { name: 'worker-vllm', image: 'runpod/worker-v1-vllm:v1.6.0stable-cuda12.1.0', serverless: true, category: 'NVIDIA' },
  { name: 'worker-sdxl', image: 'runpod/worker-sdxl:3.1.0', serverless: true, category: 'NVIDIA' },
  { name: 'worker-faster-whisper', image: 'runpod/worker-faster_whisper:0.3.0', serverless: true, category: 'NVIDIA' },
  { name: 'worker-infinity-embedding', image: 'runpod/worker-infinity-embedding:1.1.4', serverless: true, category: 'NVIDIA' },
  { name: 'worker-comfyui flux', image: 'runpod/worker-comfyui:5.1.0-flux1-dev', serverless: true, category: 'NVIDIA' },
  { name: 'cpu-preprocess', image: 'ghcr.io/acme-ml/preprocess-worker:1.4.2', serverless: true, category: 'CPU' },
];

const TEAMS = ['vision', 'speech', 'search', 'ranking', 'agents', 'research', 'platform', 'growth'];

/** The built-in templates plus `extra` team templates (custom images) for larger accounts. */
export function createTemplates(rng: Rng, newId: (length: number) => string, extra: number): SimTemplate[] {
  const seeds: TemplateSeed[] = [...BUILT_IN];
  for (let i = 0; i < extra; i++) {
    const team = TEAMS[i % TEAMS.length]!;
    const serverless = rng.chance(0.5);
    const version = `${rng.int(1, 4)}.${rng.int(0, 12)}.${rng.int(0, 9)}`;
    seeds.push({
      name: `${team} ${serverless ? 'worker' : 'workspace'} ${Math.floor(i / TEAMS.length) + 1}`,
      image: `ghcr.io/acme-ml/${team}-${serverless ? 'worker' : 'workspace'}:${version}`,
      serverless,
      category: 'NVIDIA',
      ports: serverless ? [] : ['8888/http', '22/tcp'],
      volume: serverless ? undefined : 50 * rng.int(1, 4),
    });
  }
  return seeds.map((s) => ({
    id: newId(10),
    name: s.name,
    image: s.image,
    args: s.args ?? '',
    disk: s.serverless ? 15 : 20,
    env: s.serverless ? { HF_HOME: '/runpod-volume/hf' } : { HF_HOME: '/workspace/hf' },
    ports: s.ports ?? [],
    registry: null,
    mounts: s.volume ? { persistent: { size: s.volume, path: '/workspace' } } : {},
    serverless: s.serverless,
    public: false,
    category: s.category,
    startSsh: !s.serverless,
    startJupyter: !s.serverless && (s.ports ?? []).includes('8888/http'),
    allowedCudaVersions: s.category === 'CPU' ? [] : ['12.1', '12.4'],
  }));
}

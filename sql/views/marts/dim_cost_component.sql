-- One row per cost family and amount component: the family route (source) and its amount field and column that bill
-- it, and the words people read for them – family_label (FOCUS ServiceName, legends), resource_type, the FOCUS
-- service category and subcategory, component_label – with family_order, the order reports show families in.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view dim_cost_component as
with components as (
    select * from (values
        ('pod', 'gpu', 'pods', 'gpuAmount', 'gpu_amount', 1, 'Pods', 'Pod', 'Compute', 'Containers', 'GPU'), -- pods.gpuAmount → pod/gpu
        ('pod', 'cpu', 'pods', 'cpuAmount', 'cpu_amount', 1, 'Pods', 'Pod', 'Compute', 'Containers', 'CPU'), -- pods.cpuAmount → pod/cpu
        ('pod', 'disk', 'pods', 'diskAmount', 'disk_amount', 1, 'Pods', 'Pod', 'Compute', 'Containers', 'disk'), -- pods.diskAmount → pod/disk
        ('serverless', 'gpu', 'serverless', 'gpuAmount', 'gpu_amount', 2, 'Serverless', 'Serverless Endpoint', 'Compute', 'Serverless Compute', 'GPU'), -- serverless.gpuAmount → serverless/gpu
        ('serverless', 'cpu', 'serverless', 'cpuAmount', 'cpu_amount', 2, 'Serverless', 'Serverless Endpoint', 'Compute', 'Serverless Compute', 'CPU'), -- serverless.cpuAmount → serverless/cpu
        ('serverless', 'disk', 'serverless', 'diskAmount', 'disk_amount', 2, 'Serverless', 'Serverless Endpoint', 'Compute', 'Serverless Compute', 'disk'), -- serverless.diskAmount → serverless/disk
        ('serverless', 'fee', 'serverless', 'feeAmount', 'fee_amount', 2, 'Serverless', 'Serverless Endpoint', 'Compute', 'Serverless Compute', 'fee'), -- serverless.feeAmount → serverless/fee
        ('storage', 'standard', 'network-volumes', 'standardAmount', 'standard_amount', 3, 'Network Volumes', 'Network Volume', 'Storage', 'Files', 'standard storage'), -- network-volumes.standardAmount → storage/standard
        ('storage', 'high_performance', 'network-volumes', 'highPerformanceAmount', 'high_performance_amount', 3, 'Network Volumes', 'Network Volume', 'Storage', 'Files', 'high-performance storage'), -- network-volumes.highPerformanceAmount → storage/high_performance
        ('public_endpoint', 'usage', 'endpoints', 'totalAmount', 'total_amount', 4, 'Public Endpoints', 'Public Endpoint', 'AI and Machine Learning', 'Generative AI', 'usage'), -- endpoints.totalAmount → public_endpoint/usage
        ('cluster', 'gpu', 'clusters', 'gpuAmount', 'gpu_amount', 5, 'Instant Clusters', 'Instant Cluster', 'Compute', 'Other (Compute)', 'GPU'), -- clusters.gpuAmount → cluster/gpu
        ('cluster', 'disk', 'clusters', 'diskAmount', 'disk_amount', 5, 'Instant Clusters', 'Instant Cluster', 'Compute', 'Other (Compute)', 'disk'), -- clusters.diskAmount → cluster/disk
        ('cluster', 'networking', 'clusters', 'networkingAmount', 'networking_amount', 5, 'Instant Clusters', 'Instant Cluster', 'Compute', 'Other (Compute)', 'networking') -- clusters.networkingAmount → cluster/networking
    ) as t(
        family, component, source, field, column_name, family_order, family_label, resource_type,
        focus_service_category, focus_service_subcategory, component_label
    )
),

final as (
    select * from components
)

select * from final;
